// Runs our sample tool server (apps/tool-server, built CLI) as a real child process.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built tool-server CLI. It is a program we run, not a module we import. */
export const TOOL_SERVER_MAIN = fileURLToPath(new URL('../../../../apps/tool-server/dist/main.js', import.meta.url));

/** Which tool set the server registers. */
export type ToolSet = 'demo' | 'conformance' | 'all';

/** argv for `node` that starts the tool server with the given transport. */
export function toolServerArgs(transport: 'stdio' | 'http', tools: ToolSet, extra: readonly string[] = []): string[] {
  if (!existsSync(TOOL_SERVER_MAIN)) {
    throw new Error(`${TOOL_SERVER_MAIN} is missing: build apps/tool-server first (pnpm -F ./apps/tool-server build)`);
  }
  const port = extra.includes('--port') ? [] : ['--port', '0'];
  const network = transport === 'http' ? ['--host', '127.0.0.1', ...port] : [];
  return [TOOL_SERVER_MAIN, '--transport', transport, ...network, '--tools', tools, '--log-level', 'warn', ...extra];
}

export interface RunningHttpServer {
  /** The MCP endpoint the server announced. */
  readonly url: string;
  /** Stops the process (SIGTERM, then SIGKILL after a grace period) and waits for it to exit. */
  close(): Promise<void>;
}

const URL_PATTERN = /https?:\/\/(?:127\.0\.0\.1|localhost):\d+\S*/;

/**
 * Starts the tool server over Streamable HTTP on 127.0.0.1 with an OS-chosen port (unless `extra` names a `--port`),
 * and resolves once it has printed its URL on stderr. Rejects if the process exits first or no URL appears before `deadlineMs`.
 */
export function startToolServerHttp(
  tools: ToolSet,
  deadlineMs = 10_000,
  extra: readonly string[] = [],
): Promise<RunningHttpServer> {
  const child = spawn(process.execPath, toolServerArgs('http', tools, extra), { stdio: ['ignore', 'ignore', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`tool server: ${reason}\n--- stderr ---\n${stderr}`));
    };
    const timer = setTimeout(() => fail(`no URL on stderr within ${deadlineMs} ms`), deadlineMs);
    const onEarlyExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(`exited early (code ${code}, signal ${signal})`);
    child.once('exit', onEarlyExit);
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = URL_PATTERN.exec(stderr);
      if (match === null) return;
      clearTimeout(timer);
      child.off('exit', onEarlyExit);
      // Keep draining stderr so the child never blocks on a full pipe.
      child.stderr?.removeAllListeners('data');
      child.stderr?.resume();
      resolve({ url: match[0], close: () => stop(child, exited) });
    });
  });
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const graceOver = new Promise<'grace'>((resolve) => {
    timer = setTimeout(() => resolve('grace'), 2000);
  });
  const outcome = await Promise.race([exited.then(() => 'exited' as const), graceOver]);
  clearTimeout(timer);
  if (outcome === 'grace') {
    child.kill('SIGKILL');
    await exited;
  }
}
