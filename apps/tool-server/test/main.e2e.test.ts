import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { type AddressInfo, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
const discover = (id: number) => ({ jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: META } });

const children = new Set<ChildProcessWithoutNullStreams>();
afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
});

function start(args: string[]) {
  const child = spawn(process.execPath, [MAIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.add(child);
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  /** Resolves with the first match of `pattern` in the output, failing after 10 s or when the process exits. */
  const waitFor = (stream: 'stdout' | 'stderr', pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error(`no ${pattern} on ${stream}; stderr: ${stderr}`)), 10_000);
      const check = () => {
        const match = pattern.exec(stream === 'stdout' ? stdout : stderr);
        if (match === null) return;
        clearTimeout(deadline);
        child[stream].off('data', check);
        resolve(match);
      };
      child[stream].on('data', check);
      child.once('exit', () => reject(new Error(`exited before ${pattern}; stderr: ${stderr}`)));
      check();
    });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, waitFor, exited, output: () => ({ stdout, stderr }) };
}

async function rpc(url: string, message: { method: string; params: object }) {
  const name = (message.params as { name?: string }).name;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': message.method,
      ...(name === undefined ? {} : { 'mcp-name': name }),
    },
    body: JSON.stringify(message),
  });
  return (await response.json()) as { result?: Record<string, unknown>; error?: { code: number } };
}

describe('dist/main.js', () => {
  it('http: prints the endpoint URL, serves discover, and exits 0 on SIGTERM while a task runs', async () => {
    const server = start(['--transport', 'http', '--port', '0', '--log-level', 'error']);
    const [, url = ''] = await server.waitFor('stderr', /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    expect((await rpc(url, discover(1))).result?.resultType).toBe('complete');
    const call = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'checksum_data', arguments: { megabytes: 60_000 }, _meta: META },
    };
    expect((await rpc(url, call)).result?.resultType).toBe('task');
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual([0, null]);
    expect(server.output().stdout).toBe('');
  });

  it('ws: prints the endpoint URL, serves discover, and exits 0 on SIGINT', async () => {
    const server = start(['--transport', 'ws', '--tools', 'demo']);
    const [, url = ''] = await server.waitFor('stderr', /listening on (ws:\/\/127\.0\.0\.1:\d+\/mcp)/);
    const socket = new WebSocket(url, 'mcp');
    await once(socket, 'open');
    const reply = once(socket, 'message');
    socket.send(JSON.stringify(discover(3)));
    const [data] = (await reply) as [Buffer];
    expect(JSON.parse(String(data))).toMatchObject({ id: 3, result: { resultType: 'complete' } });
    server.child.kill('SIGINT');
    expect(await server.exited).toEqual([0, null]);
    socket.terminate();
  });

  it('stdio: only protocol messages on stdout; exits 0 on SIGTERM and on stdin EOF', async () => {
    const server = start(['--transport', 'stdio', '--log-level', 'debug']);
    server.child.stdin.write(`${JSON.stringify(discover(4))}\n`);
    await server.waitFor('stdout', /\n/);
    const lines = server.output().stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ id: 4, result: { resultType: 'complete' } });
    expect(server.output().stderr).toContain('serving on stdio');
    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual([0, null]);

    const second = start(['--transport', 'stdio']);
    second.child.stdin.end(`${JSON.stringify(discover(5))}\n`);
    expect(await second.exited).toEqual([0, null]);
    expect(JSON.parse(second.output().stdout)).toMatchObject({ id: 5 });
  });

  it('--version prints the version and exits 0', async () => {
    const server = start(['--version']);
    expect((await server.exited)[0]).toBe(0);
    expect(server.output().stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
  });

  it('--log-level debug logs each request as a structured line; a refused token is logged at info', async () => {
    const server = start(['--transport', 'http', '--port', '0', '--log-level', 'debug', '--token', 'right']);
    const [, url = ''] = await server.waitFor('stderr', /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    const refused = await fetch(url, { method: 'POST', body: '{}', headers: { authorization: 'Bearer wrong' } });
    expect(refused.status).toBe(401);
    const [refusal = ''] = await server.waitFor('stderr', /^\{.*refused a request.*\}$/m);
    expect(JSON.parse(refusal)).toMatchObject({ level: 30, transport: 'http' });
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: 'Bearer right',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'server/discover',
      },
      body: JSON.stringify(discover(7)),
    });
    expect(response.status).toBe(200);
    const [line = ''] = await server.waitFor('stderr', /^\{.*"msg":"request".*\}$/m);
    expect(JSON.parse(line)).toMatchObject({
      level: 20,
      method: 'server/discover',
      principal: 'token-holder',
      taskId: null,
      outcome: 'ok',
      durationMs: expect.any(Number),
    });
  });

  it('exits 2 with one readable line on a usage error', async () => {
    const server = start(['--transport', 'carrier-pigeon']);
    expect(await server.exited).toEqual([2, null]);
    expect(server.output().stderr).toBe(
      'mcp-tasks-tool-server: --transport must be one of stdio, http, ws (got "carrier-pigeon") (see --help)\n',
    );
  });

  it('names the closest valid option and lists them all for an unknown one (exit 2)', async () => {
    const server = start(['--transprot', 'ws']);
    expect(await server.exited).toEqual([2, null]);
    expect(server.output().stderr).toMatch(
      /^mcp-tasks-tool-server: unknown option --transprot \(did you mean --transport\?\); valid options: --transport, --host, --port, --tools, --token, --auth-issuer, --auth-resource, --auth-jwks, --auth-introspection, --auth-client-id, --log-level, --console, --otel, --store, --instance-id, --lease-ms, --keep-finished-ms, --max-tasks-per-principal, --role, --park-after-ms, --concurrency, --drain-ms, --max-connections, [-a-z, ]+, --max-depth, --help, --version \(see --help\)\n$/,
    );
  });

  it('an unreachable --store database: exits 1 with one line naming it (password hidden), never listens', async () => {
    // A port nothing listens on: bind one, then close it.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const server = start([
      '--transport',
      'http',
      '--port',
      '0',
      '--store',
      `postgres://me:secret@127.0.0.1:${port}/tasks`,
    ]);
    expect(await server.exited).toEqual([1, null]);
    const { stderr } = server.output();
    expect(stderr).toMatch(
      new RegExp(
        `^mcp-tasks-tool-server: cannot start: cannot use the task store at postgres://me:\\*\\*\\*@127\\.0\\.0\\.1:${port}/tasks: .*ECONNREFUSED.*\n$`,
      ),
    );
    expect(stderr).not.toMatch(/secret|listening|\n\s+at /);
  });

  it('--help prints every option and exits 0', async () => {
    const server = start(['--help']);
    expect(await server.exited).toEqual([0, null]);
    for (const option of ['--transport', '--host', '--port', '--tools', '--token', '--log-level', '--version'])
      expect(server.output().stdout).toContain(option);
  });
});
