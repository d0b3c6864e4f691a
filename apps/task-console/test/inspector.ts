/**
 * Starts the pinned MCP Inspector's web UI (`@modelcontextprotocol/inspector`, the version tooling/interop tests
 * with) on 127.0.0.1 against one Streamable HTTP endpoint, with its secrets in memory and its storage in a temp dir.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../node_modules/.bin/inspector', import.meta.url));

/** A running Inspector web UI. */
export interface RunningInspector {
  /** The page URL, with its API token. */
  readonly url: string;
  stop(): Promise<void>;
}

/** The Inspector needs a fixed port (it derives its origin allow-list from it): take a free one from the OS. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Starts the Inspector for `endpoint`; rejects after 60 s without its "up and running" line. */
export async function startInspector(endpoint: string): Promise<RunningInspector> {
  const home = await mkdtemp(join(tmpdir(), 'inspector-'));
  const env = {
    ...process.env,
    HOME: home,
    HOST: '127.0.0.1',
    CLIENT_PORT: String(await freePort()),
    MCP_SANDBOX_PORT: '0',
    MCP_APP_ORIGIN_PORT: '0',
    MCP_AUTO_OPEN_ENABLED: 'false',
    MCP_INSPECTOR_SECRET_STORE: 'memory',
    MCP_STORAGE_DIR: join(home, 'storage'),
  };
  const child: ChildProcess = spawn(
    BIN,
    ['--web', '--transport', 'http', '--server-url', endpoint, '--protocol-era', 'auto'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = once(child, 'exit');
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`inspector not ready:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /running at:\s+(http:\/\/\S+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`inspector exited (${code}):\n${output}`));
    });
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await rm(home, { recursive: true, force: true });
    throw error;
  });
  return {
    url,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(home, { recursive: true, force: true });
    },
  };
}
