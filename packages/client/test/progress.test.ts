import type { TransportRequest } from '@mcp-tasks/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { McpClient, type McpClientOptions, type Progress } from '../src/index.js';
import { ack, created, elicit, FakeTransport, polled, type Responder, textResult } from './fakeTransport.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };
const accept = async () => ({ action: 'accept' as const, content: { ok: true } });

function setup(responder: Responder, options: Partial<McpClientOptions> = {}) {
  const transport = new FakeTransport(responder);
  return { transport, client: new McpClient({ transport, clientInfo, handlers: { elicitation: accept }, ...options }) };
}

function tokenOf(request: TransportRequest | undefined): unknown {
  const meta = request?.params?._meta as Record<string, unknown> | undefined;
  return meta?.progressToken;
}

const progress = (progressToken: unknown, params: Record<string, unknown>) => ({
  jsonrpc: '2.0' as const,
  method: 'notifications/progress',
  params: { progressToken, ...params },
});

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('progress (basic/patterns/progress)', () => {
  it('sends a progressToken and passes that token’s notifications to onProgress in order', async () => {
    const { transport, client } = setup((req, { notify }) => {
      const token = tokenOf(req);
      notify(progress(token, { progress: 1, total: 3, message: 'one' }));
      notify(progress(token, { progress: 2 }));
      notify(progress(token, { progress: 3, total: 3 }));
      return textResult('done');
    });
    const seen: Progress[] = [];
    await expect(client.callTool('t', {}, { onProgress: (p) => seen.push(p) })).resolves.toMatchObject({
      content: [{ text: 'done' }],
    });
    const token = tokenOf(transport.calls('tools/call')[0]);
    expect(typeof token === 'string' || Number.isInteger(token)).toBe(true);
    expect(seen).toEqual([{ progress: 1, total: 3, message: 'one' }, { progress: 2 }, { progress: 3, total: 3 }]);
  });

  it('ignores other tokens, other methods and malformed progress notifications', async () => {
    const { client } = setup((req, { notify }) => {
      const token = tokenOf(req);
      notify(progress('someone-else', { progress: 1 }));
      notify(progress(token, { progress: 'half' }));
      notify(progress(token, {}));
      notify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'x' } });
      notify({ jsonrpc: '2.0', method: 'notifications/progress' });
      notify(progress(token, { progress: 5 }));
      return textResult('done');
    });
    const seen: Progress[] = [];
    await client.callTool('t', {}, { onProgress: (p) => seen.push(p) });
    expect(seen).toEqual([{ progress: 5 }]);
  });

  it('sends no progressToken without onProgress, and keeps the caller’s own _meta with one', async () => {
    const { transport, client } = setup(() => textResult('done'));
    await client.callTool('t');
    expect(tokenOf(transport.calls('tools/call')[0])).toBeUndefined();
    await client.request('x/y', { _meta: { 'example.com/trace': 'abc' } }, { onProgress: () => undefined });
    const meta = transport.calls('x/y')[0]!.params!._meta as Record<string, unknown>;
    expect(meta['example.com/trace']).toBe('abc');
    expect(meta.progressToken).toBeDefined();
    expect(meta['io.modelcontextprotocol/protocolVersion']).toBeDefined();
  });

  it('uses a fresh token for every request: each MRTR round and concurrent calls (unique across active requests)', async () => {
    const { transport, client } = setup((req, { notify }) => {
      notify(progress(tokenOf(req), { progress: req.params?.requestState === undefined ? 1 : 2 }));
      return req.params?.requestState === undefined && req.params?.name === 'mrtr'
        ? { resultType: 'input_required', inputRequests: { q: elicit('?') }, requestState: 'S' }
        : textResult('done');
    });
    const seen: Progress[] = [];
    await Promise.all([
      client.callTool('mrtr', {}, { onProgress: (p) => seen.push(p) }),
      client.callTool('other', {}, { onProgress: () => undefined }),
    ]);
    const tokens = transport.calls('tools/call').map(tokenOf);
    expect(tokens).toHaveLength(3);
    expect(new Set(tokens).size).toBe(3);
    expect(seen).toEqual([{ progress: 1 }, { progress: 2 }]);
  });

  it('a throwing onProgress does not break the call', async () => {
    const { client } = setup((req, { notify }) => {
      notify(progress(tokenOf(req), { progress: 1 }));
      return textResult('done');
    });
    const onProgress = vi.fn(() => {
      throw new Error('ui bug');
    });
    await expect(client.callTool('t', {}, { onProgress })).resolves.toMatchObject({ content: [{ text: 'done' }] });
    expect(onProgress).toHaveBeenCalledTimes(1);
  });

  it('stops at the CreateTaskResult: task requests carry no token and report no progress (decision 10)', async () => {
    let polls = 0;
    const { transport, client } = setup((req, { notify }) => {
      const token = tokenOf(req) ?? 'progress-1';
      // A misbehaving server that keeps reporting under the call's token while the task runs.
      notify(progress(token, { progress: req.method === 'tools/call' ? 1 : 10 + polls }));
      if (req.method === 'tools/call') return created('working', { pollIntervalMs: 100 });
      if (req.method === 'tasks/get')
        return ++polls < 2 ? polled('working') : polled('completed', { result: textResult('done') });
      return ack;
    });
    const seen: Progress[] = [];
    const call = client.callTool('t', {}, { onProgress: (p) => seen.push(p) });
    await vi.runAllTimersAsync();
    await expect(call).resolves.toMatchObject({ content: [{ text: 'done' }] });
    expect(transport.calls('tasks/get').map(tokenOf)).toEqual([undefined, undefined]);
    expect(seen).toEqual([{ progress: 1 }]);
  });

  it('getPrompt, readResource and callToolRaw report progress; the token is not part of the cache key', async () => {
    const { transport, client } = setup((req, { notify }) => {
      notify(progress(tokenOf(req), { progress: 1, message: req.method }));
      if (req.method === 'prompts/get') return { messages: [] };
      if (req.method === 'resources/read') return { contents: [], ttlMs: 60_000 };
      return textResult('raw');
    });
    const seen: Progress[] = [];
    const onProgress = (p: Progress) => seen.push(p);
    await client.getPrompt('p', undefined, { onProgress });
    await client.readResource('file:///a', { onProgress });
    await client.readResource('file:///a', { onProgress });
    await client.callToolRaw('t', {}, { onProgress });
    expect(transport.calls('resources/read')).toHaveLength(1);
    expect(seen.map((p) => p.message)).toEqual(['prompts/get', 'resources/read', 'tools/call']);
  });
});
