/**
 * Real-process helpers for the end-to-end tests: start the built tool server, run the built client, wait for
 * output with a deadline, and make sure every process a test started is gone when it ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const CLIENT_MAIN = resolve(here, '../dist/main.js');
export const SERVER_MAIN = resolve(here, '../../tool-server/dist/main.js');

/** The transports every end-to-end case runs over. */
export type TransportKind = 'stdio' | 'http' | 'ws';

/** Children started by the current test (`killAll` ends them) and by a suite's `beforeAll` (`killSuite`). */
const children = { test: new Set<ChildProcess>(), suite: new Set<ChildProcess>() };
type Scope = keyof typeof children;

/** Output collected from a child, readable while it runs. */
export interface Running {
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when `pattern` appears in stdout (or stderr with `stream: 'stderr'`); rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, options?: { stream?: 'stdout' | 'stderr'; timeoutMs?: number }): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or 128 + signal number) once the process has exited. */
  exited(): Promise<number>;
}

export function track(child: ChildProcess, scope: Scope = 'test'): Running {
  children[scope].add(child);
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    wake();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    wake();
  });
  const exit = new Promise<number>((done) => {
    child.once('close', (code, signal) => {
      children[scope].delete(child);
      wake();
      done(code ?? 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 0));
    });
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited: () => exit,
    waitFor(pattern, options = {}) {
      const read = () => (options.stream === 'stderr' ? err : out);
      return new Promise((resolvePromise, reject) => {
        const check = () => {
          const match = read().match(pattern);
          if (match) {
            cleanup();
            resolvePromise(match);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            cleanup();
            reject(new Error(`process exited before ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; stdout:\n${out}\nstderr:\n${err}`));
        }, options.timeoutMs ?? 10_000);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** Sends SIGKILL to every child the current test started that still runs, and waits for them to go. */
export function killAll(): Promise<void> {
  return kill(children.test);
}

/** Like {@link killAll}, for the children started with `scope: 'suite'`. */
export function killSuite(): Promise<void> {
  return kill(children.suite);
}

async function kill(set: Set<ChildProcess>): Promise<void> {
  const running = [...set];
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('close', () => done());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** A server as the client addresses it, plus the process when the test started one (http and ws). */
export interface ServerUnderTest {
  readonly flags: readonly string[];
  readonly process: Running | undefined;
}

/**
 * Starts the tool server for `kind`. For http and ws it runs on port 0 (unless `extra` names a `--port`) and the URL is read from its stderr; for
 * stdio nothing starts here: the client spawns the server from the `--stdio` command line it is given.
 */
export async function startServer(
  kind: TransportKind,
  extra: readonly string[] = [],
  scope: Scope = 'test',
): Promise<ServerUnderTest> {
  const args = [SERVER_MAIN, '--transport', kind, '--tools', 'demo', ...extra];
  if (kind === 'stdio') return { flags: ['--stdio', `${process.execPath} ${args.join(' ')}`], process: undefined };
  const port = extra.includes('--port') ? [] : ['--port', '0'];
  const server = track(spawn(process.execPath, [...args, ...port], { stdio: ['ignore', 'pipe', 'pipe'] }), scope);
  const [url] = await server.waitFor(/(?:http|ws):\/\/[^\s]+\/mcp/, { stream: 'stderr' });
  return { flags: ['--url', url], process: server };
}

/** Starts the built client with `args`; stdin is closed so nothing can wait for a keyboard. */
export function startClient(args: readonly string[], env: Record<string, string> = {}): Running {
  return track(
    spawn(process.execPath, [CLIENT_MAIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    }),
  );
}

/**
 * Starts the built client on a pseudo-terminal (util-linux `script`), 100 columns wide, so it prompts as it does
 * for a person; write key presses to `child.stdin`. Its stdout carries the terminal's output, escapes and all.
 */
export function startClientInTerminal(args: readonly string[]): Running {
  const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
  const command = `stty cols 100 rows 40; exec ${[process.execPath, CLIENT_MAIN, ...args].map(quote).join(' ')}`;
  return track(spawn('script', ['-qfec', command, '/dev/null'], { stdio: ['pipe', 'pipe', 'pipe'] }));
}

/** Runs the client to its end. */
export async function runClient(
  args: readonly string[],
  env?: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const client = startClient(args, env);
  const code = await client.exited();
  return { code, stdout: client.stdout(), stderr: client.stderr() };
}

/** Polls `condition` until it holds, failing after `timeoutMs`. */
export async function eventually(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The direct children of `pid` (Linux `/proc`), e.g. the stdio server a client spawned. */
export function childPids(pid: number): number[] {
  const path = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

/** Whether the built artefacts exist (the e2e run needs both apps built). */
export function builtArtefacts(): string[] {
  return [CLIENT_MAIN, SERVER_MAIN].filter((p) => !existsSync(p)).map((p) => join(p));
}
