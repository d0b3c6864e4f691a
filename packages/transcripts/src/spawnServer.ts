import { spawn } from 'node:child_process';

/** A server process started by {@link spawnServer}. */
export interface SpawnedServer {
  /** The endpoint URL the process printed. */
  readonly url: string;
  /** Everything it wrote to stderr so far (for failure messages). */
  stderr(): string;
  /** Ends it (SIGTERM, then SIGKILL after 5 s) and resolves once it exited. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Starts a network server as a child process and resolves once it printed its endpoint (`http(s)://` or `ws(s)://`
 * URL) on stderr, as this repository's tool server does; rejects when it exits first or after `timeoutMs`.
 */
export function spawnServer(command: string, args: readonly string[], timeoutMs = 20_000): Promise<SpawnedServer> {
  const child = spawn(command, [...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    })();
    return stopping;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${command} printed no endpoint in ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
      const url = /\b((?:https?|wss?):\/\/\S+)/.exec(err)?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ url, stderr: () => err, stop });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited (${code}) before printing an endpoint: ${err}`));
    });
  });
}
