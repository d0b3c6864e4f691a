// The peers, how each one's servers start and how each one's client runs (the matrix's rows).
import { join } from 'node:path';
import { peersDir } from './install.js';
import { freePort, startProcess, waitForHttp, waitForOutput } from './processes.js';

const py = (file) => join(peersDir, 'python', file);
const quietPython = { PYTHONWARNINGS: 'ignore', PYTHONUNBUFFERED: '1' };

/** Starts a Python HTTP server on a free port; resolves with { url, procs }. */
async function pythonHttp(python, script, extraArgs, env = {}) {
  const port = await freePort();
  const proc = startProcess(python, [script, '--transport', 'http', '--port', String(port), ...extraArgs], {
    env: { ...quietPython, ...env },
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  await waitForHttp(url, proc);
  return { url, procs: [proc] };
}

/** A Python stdio server: nothing runs until a client spawns it. */
function pythonStdio(python, script) {
  return { stdio: { command: python, args: [script, '--transport', 'stdio'], env: quietPython }, procs: [] };
}

/** fastmcp-tasks on Redis: a private redis-server, the HTTP front end, and a separate Docket worker process. */
async function fastmcpOnRedis(install) {
  const redisPort = await freePort();
  const redis = startProcess(install.redis.command, [
    '--port',
    String(redisPort),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  await waitForOutput(redis, /Ready to accept connections/);
  const env = { FASTMCP_DOCKET_URL: `redis://127.0.0.1:${redisPort}/0`, FASTMCP_DOCKET_NAME: `interop-${redisPort}` };
  const server = await pythonHttp(install.fastmcp.python, py('fastmcp_fixture.py'), ['--stateless'], env);
  const worker = startProcess(
    install.fastmcp.python,
    ['-m', 'fastmcp_tasks.worker_cli', 'worker', py('fastmcp_fixture.py')],
    {
      env: { ...quietPython, ...env },
    },
  );
  return { url: server.url, procs: [...server.procs, worker, redis] };
}

/**
 * Each peer: `needs` (installs), `servers` (transport, era, start → { url } or { stdio }) and `clients`
 * (transport, era, the command that runs its cases against our tool server's { url } or { stdio }).
 */
export const peers = [
  {
    id: 'mcpkit',
    label: 'mcpkit ext/tasks (Go)',
    needs: ['go'],
    servers: [
      ...[
        ['http-stateless', 'stateless'],
        ['http-sessionful', 'legacy'],
      ].map(([transport, wire]) => ({
        transport,
        era: '2026',
        start: async (install) => {
          const proc = startProcess(install.go.binary, [
            'serve',
            '--transport',
            'http',
            '--wire',
            wire,
            '--era',
            '2026',
          ]);
          const [, url] = await waitForOutput(proc, /LISTENING (\S+)/);
          return { url, procs: [proc] };
        },
      })),
      {
        transport: 'stdio',
        era: '2026',
        start: async (install) => ({
          stdio: { command: install.go.binary, args: ['serve', '--transport', 'stdio'] },
          procs: [],
        }),
      },
      {
        transport: 'http-sessionful',
        era: '2025',
        start: async (install) => {
          const proc = startProcess(install.go.binary, [
            'serve',
            '--transport',
            'http',
            '--wire',
            'legacy',
            '--era',
            '2025',
          ]);
          const [, url] = await waitForOutput(proc, /LISTENING (\S+)/);
          return { url, procs: [proc] };
        },
      },
    ],
    clients: [
      {
        transport: 'http-stateless',
        era: '2026',
        command: (install, t) => [install.go.binary, 'client', '--url', t.url, '--wire', 'stateless'],
      },
      { transport: 'stdio', era: '2026', command: (install, t) => [install.go.binary, 'client', '--stdio', t.stdio] },
      {
        transport: 'http-sessionful',
        era: '2025',
        command: (install, t) => [install.go.binary, 'client', '--url', t.url, '--wire', 'legacy', '--era', '2025'],
      },
    ],
  },
  {
    id: 'fastmcp-tasks',
    label: 'fastmcp-tasks (Python)',
    needs: ['fastmcp', 'redis'],
    servers: [
      {
        transport: 'http-stateless',
        backend: 'memory://',
        era: '2026',
        start: (install) => pythonHttp(install.fastmcp.python, py('fastmcp_fixture.py'), ['--stateless']),
      },
      {
        transport: 'http-stateless',
        backend: 'redis + worker',
        era: '2026',
        start: (install) => fastmcpOnRedis(install),
      },
      {
        transport: 'stdio',
        backend: 'memory://',
        era: '2026',
        start: async (install) => pythonStdio(install.fastmcp.python, py('fastmcp_fixture.py')),
      },
    ],
    clients: [
      {
        transport: 'http-stateless',
        era: '2026',
        command: (install, t) => [install.fastmcp.python, py('fastmcp_client.py'), '--url', t.url],
      },
      {
        transport: 'stdio',
        era: '2026',
        command: (install, t) => [install.fastmcp.python, py('fastmcp_client.py'), '--stdio', t.stdio],
      },
    ],
  },
  {
    id: 'mcp-python-1.x',
    label: 'Python SDK mcp 1.x',
    needs: ['mcp1'],
    servers: [
      {
        transport: 'http-sessionful',
        era: '2025',
        start: (install) => pythonHttp(install.mcp1.python, py('mcp1_fixture.py'), []),
      },
      {
        transport: 'stdio',
        era: '2025',
        start: async (install) => pythonStdio(install.mcp1.python, py('mcp1_fixture.py')),
      },
    ],
    clients: [
      {
        transport: 'http-sessionful',
        era: '2025',
        command: (install, t) => [install.mcp1.python, py('mcp1_client.py'), '--url', t.url],
      },
      {
        transport: 'stdio',
        era: '2025',
        command: (install, t) => [install.mcp1.python, py('mcp1_client.py'), '--stdio', t.stdio],
      },
    ],
  },
];
