// The tool server over WebSocket as an OAuth resource server of a real authorization server (oidc-provider,
// tooling/oidc-harness, issuing JWT access tokens): the upgrade, the metadata, required scopes, and tasks bound to
// issuer + subject on every path.
import { type OidcHarness, startOidcHarness } from '@mcp-tasks/oidc-harness';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger } from '../src/logger.js';
import { type StartedToolServer, startToolServer } from '../src/startToolServer.js';

const RESOURCE = 'https://mcp.example/mcp';
const METADATA = 'https://mcp.example/.well-known/oauth-protected-resource/mcp';
const EXT_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
};
let harness: OidcHarness;
let started: StartedToolServer;
const sockets: WebSocket[] = [];

beforeAll(async () => {
  harness = await startOidcHarness({ scopes: ['read', 'deploy'] });
  started = await startToolServer(
    {
      transport: 'ws',
      host: '127.0.0.1',
      port: 0,
      tools: 'demo',
      tokens: [],
      auth: { issuer: harness.issuer, resource: RESOURCE },
    },
    createLogger('silent'),
  );
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.terminate();
});
afterAll(async () => {
  await started?.stop();
  await harness?.close();
});

const tokenOf = async (user: 'alice' | 'bob', scope = 'read', resource = RESOURCE) =>
  (await harness.tokensFor(user, { resource, scope })).accessToken;

/** The status and `WWW-Authenticate` of a refused upgrade, as `ws` reports the response. */
function refusal(authorization?: string): Promise<{ status?: number; challenge?: string }> {
  const headers = authorization === undefined ? {} : { authorization };
  const socket = new WebSocket(started.url as string, ['mcp'], { headers });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('unexpected-response', (upgrade, response) => {
      response.resume();
      upgrade.destroy();
      resolve({ status: response.statusCode, challenge: response.headers['www-authenticate'] });
    });
    socket.once('open', () => reject(new Error('the upgrade was accepted')));
    // Also what terminating the refused socket in teardown reports; the promise is settled by then.
    socket.on('error', reject);
  });
}

interface Frame {
  id?: number;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  params?: Record<string, unknown>;
}

/** A socket for `token`, every frame it receives, and a request that resolves with the response to its id. */
async function connect(token: string) {
  const socket = new WebSocket(started.url as string, ['mcp'], { headers: { authorization: `Bearer ${token}` } });
  sockets.push(socket);
  const frames: Frame[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(String(data)) as Frame));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  let nextId = 0;
  const until = async (found: () => Frame | undefined): Promise<Frame> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const frame = found();
      if (frame !== undefined) return frame;
      if (Date.now() > deadline) throw new Error(`no such frame among ${JSON.stringify(frames)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const send = (method: string, params: Record<string, unknown>) => {
    const id = ++nextId;
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: EXT_META } }));
    return id;
  };
  const rpc = async (method: string, params: Record<string, unknown>) => {
    const id = send(method, params);
    return until(() => frames.find((f) => f.id === id && f.method === undefined));
  };
  /** A 2025-era request: no `_meta` version, the socket is the session. */
  const legacy = async (method: string, params: Record<string, unknown>) => {
    const id = ++nextId;
    socket.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
    return until(() => frames.find((f) => f.id === id && f.method === undefined));
  };
  return { frames, send, rpc, legacy, until };
}

describe('tool server --transport ws --auth-issuer against oidc-provider', () => {
  it('A-S1, A-S2, A-S3: metadata on the same port, 401 with resource_metadata at the upgrade, audience checked', async () => {
    const metadata = await fetch(
      new URL('/.well-known/oauth-protected-resource/mcp', (started.url as string).replace('ws:', 'http:')),
    );
    expect(await metadata.json()).toMatchObject({ resource: RESOURCE, authorization_servers: [harness.issuer] });
    expect(await refusal()).toEqual({ status: 401, challenge: `Bearer resource_metadata="${METADATA}"` });
    const foreign = await refusal(`Bearer ${await tokenOf('alice', 'read', 'https://other.example/mcp')}`);
    expect(foreign.status).toBe(401);
    expect(foreign.challenge).toMatch(/^Bearer resource_metadata="[^"]+", error="invalid_token"/);
    const alice = await connect(await tokenOf('alice'));
    expect((await alice.rpc('tools/list', {})).result?.tools).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'deploy_service' })]),
    );
  });

  it('A-S6: deploy_service without the deploy scope is refused with insufficient_scope; with it the call goes on', async () => {
    const reader = await connect(await tokenOf('bob', 'read'));
    const call = { name: 'deploy_service', arguments: { service: 'api', version: '1' } };
    expect(await reader.rpc('tools/call', call)).toMatchObject({
      error: {
        code: -32600,
        message: expect.stringMatching(/needs the scope deploy/),
        data: {
          error: 'insufficient_scope',
          scope: 'read deploy',
          missingScopes: ['deploy'],
          wwwAuthenticate: `Bearer resource_metadata="${METADATA}", error="insufficient_scope", scope="read deploy"`,
        },
      },
    });
    const deployer = await connect(await tokenOf('bob', 'read deploy'));
    const allowed = await deployer.rpc('tools/call', call);
    expect((allowed.error?.data as { error?: string } | undefined)?.error).not.toBe('insufficient_scope');
  });

  it('A-S8: a task is bound to issuer + subject on every WebSocket path: get, update, cancel, listen', async () => {
    const alice = await connect(await tokenOf('alice'));
    const bob = await connect(await tokenOf('bob'));
    const created = await alice.rpc('tools/call', {
      name: 'count_steps',
      arguments: { steps: 1000, intervalMs: 60_000 },
    });
    expect(created.result?.resultType).toBe('task');
    const taskId = created.result?.taskId as string;
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: {} }],
      ['tasks/cancel', { taskId }],
    ] as const)
      expect((await bob.rpc(method, params)).error?.code, method).toBe(-32602);
    // Bob's listen acknowledges none of it; Alice's names it and then sees her own cancellation.
    bob.send('subscriptions/listen', { notifications: { taskIds: [taskId] } });
    const bobAck = await bob.until(() =>
      bob.frames.find((f) => f.method === 'notifications/subscriptions/acknowledged'),
    );
    expect(bobAck.params?.notifications).toEqual({ taskIds: [] });
    alice.send('subscriptions/listen', { notifications: { taskIds: [taskId] } });
    const aliceAck = await alice.until(() =>
      alice.frames.find((f) => f.method === 'notifications/subscriptions/acknowledged'),
    );
    expect(aliceAck.params?.notifications).toEqual({ taskIds: [taskId] });
    expect((await alice.rpc('tasks/get', { taskId })).result?.status).toBe('working');
    expect((await alice.rpc('tasks/cancel', { taskId })).result?.resultType).toBe('complete');
    await alice.until(() =>
      alice.frames.find((f) => f.method === 'notifications/tasks' && f.params?.status === 'cancelled'),
    );
    expect(bob.frames.some((f) => f.method === 'notifications/tasks')).toBe(false);
  });

  it('A-S8: 2025-era sockets too: another user’s session never reaches the task', async () => {
    const open = async (user: 'alice' | 'bob') => {
      const socket = await connect(await tokenOf(user));
      const init = await socket.legacy('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: { tasks: {} },
        clientInfo: { name: 't', version: '1' },
      });
      expect(init.result?.protocolVersion).toBe('2025-11-25');
      socket.frames.length = 0;
      return socket;
    };
    const alice = await open('alice');
    const created = await alice.legacy('tools/call', {
      name: 'count_steps',
      arguments: { steps: 1000, intervalMs: 60_000 },
      task: {},
    });
    const taskId = (created.result?.task as { taskId?: string } | undefined)?.taskId ?? '';
    expect(taskId).not.toBe('');
    const bob = await open('bob');
    for (const method of ['tasks/get', 'tasks/result', 'tasks/cancel'])
      expect((await bob.legacy(method, { taskId })).error?.code, method).toBe(-32602);
    expect((await bob.legacy('tasks/list', {})).result?.tasks).toEqual([]);
    expect((await alice.legacy('tasks/cancel', { taskId })).result?.status).toBe('cancelled');
  });
});
