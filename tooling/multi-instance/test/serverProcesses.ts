/**
 * The built tool server as real processes on one PostgreSQL: start, read the endpoint from stderr, stop (SIGTERM)
 * or kill (SIGKILL), and make sure none outlives the test.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../../apps/tool-server/dist/main.js', import.meta.url));
/** Short enough that a lost worker is noticed within a test's deadline; long enough for a loaded 2-core machine. */
export const LEASE_MS = 1_500;

const running = new Set<ChildProcess>();

/** One tool-server process. */
export interface ServerProcess {
  readonly id: string;
  /** The endpoint; empty for a `--role worker` instance (it opens no port). */
  readonly url: string;
  readonly child: ChildProcess;
  stderr(): string;
  /** SIGTERM (a clean shutdown), resolved once the process has exited. */
  stop(): Promise<void>;
  /** SIGKILL: the process dies at once, leases unrenewed, nothing recorded. */
  kill(): Promise<void>;
}

/**
 * Starts `dist/main.js --tools demo` as instance `id` on the database `store`, with `extra` arguments last (a
 * repeated option takes the last value); resolves once it listens (or, as a worker, once it runs).
 */
export async function startServer(
  id: string,
  store: string,
  transport: 'http' | 'ws' = 'http',
  extra: readonly string[] = [],
): Promise<ServerProcess> {
  const args = ['--transport', transport, '--port', '0', '--tools', 'demo', '--store', store];
  args.push('--instance-id', id, '--lease-ms', String(LEASE_MS), '--log-level', 'warn', ...extra);
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  running.add(child);
  const exited = once(child, 'exit');
  void exited.then(() => running.delete(child));
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance ${id} did not start; stderr: ${stderr}`)), 20_000);
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /listening on ((?:http|ws):\/\/127\.0\.0\.1:\d+\/mcp)|(worker running durable tasks)/.exec(stderr);
      if (match === null) return;
      clearTimeout(timer);
      resolve(match[1] ?? '');
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`instance ${id} exited before listening; stderr: ${stderr}`));
    });
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      await exited;
    }
  };
  return { id, url, child, stderr: () => stderr, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}

/** SIGKILLs every server process still running (teardown). */
export async function killAllServers(): Promise<void> {
  await Promise.all(
    [...running].map(async (child) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }),
  );
}
