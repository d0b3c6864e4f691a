/** Spawns `apps/tool-server` (built) with `--console` on 127.0.0.1 and learns its URLs from the ready lines. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../tool-server/dist/main.js', import.meta.url));

/** A running tool server process. */
export interface ToolServer {
  readonly child: ChildProcessWithoutNullStreams;
  readonly endpoint: string;
  readonly consoleUrl: string;
  readonly port: number;
  /** SIGKILL (a crash, as far as the page can tell) and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** The JSON log lines (pino) the server has written to stderr so far, parsed; other lines are left out. */
  logLines(): Record<string, unknown>[];
}

/** Starts the server; `port` 0 picks a free one. Rejects after 15 s without the ready line. */
export async function startToolServer(args: readonly string[] = [], port = 0): Promise<ToolServer> {
  const child = spawn(
    process.execPath,
    [
      MAIN,
      '--transport',
      'http',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--console',
      '--log-level',
      'error',
      ...args,
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const ready = new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tool server not ready: ${stderr}`)), 15_000);
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on (\S+)[\s\S]*task console at (\S+)/.exec(stderr);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`tool server exited (${code}): ${stderr}`));
    });
  });
  const [, endpoint = '', consoleUrl = ''] = await ready.catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  const exited = once(child, 'exit');
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return {
    child,
    endpoint,
    consoleUrl,
    port: Number(new URL(endpoint).port),
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
    logLines: () =>
      stderr.split('\n').flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
  };
}
