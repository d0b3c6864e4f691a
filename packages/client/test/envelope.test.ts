import { ErrorCode, META, ProtocolError, TASKS_EXTENSION_ID, TransportError } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { InvalidResponseError, McpClient } from '../src/index.js';
import { ack, created, FakeTransport, polled, type Responder, textResult } from './fakeTransport.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };

function client(responder: Responder, options: Partial<ConstructorParameters<typeof McpClient>[0]> = {}) {
  const transport = new FakeTransport(responder);
  return { transport, client: new McpClient({ transport, clientInfo, ...options }) };
}

const meta = (message: { params?: Record<string, unknown> }) => message.params?._meta as Record<string, unknown>;

describe('request envelope', () => {
  it('puts protocolVersion, clientCapabilities and clientInfo on every request, tasks/* included (C1, C2)', async () => {
    const { transport, client: c } = client((req) => {
      if (req.method === 'tools/call') return created('completed');
      if (req.method === 'tasks/get') return polled('completed', { result: textResult('ok') });
      return ack;
    });
    await c.request('ping');
    await c.callTool('t');
    await c.updateTask('t-1', {});
    await c.cancelTask('t-1');
    expect(transport.requests.map((r) => r.message.method)).toEqual([
      'ping',
      'tools/call',
      'tasks/get',
      'tasks/update',
      'tasks/cancel',
    ]);
    for (const { message } of transport.requests) {
      expect(meta(message)).toEqual({
        [META.protocolVersion]: '2026-07-28',
        [META.clientCapabilities]: { extensions: { [TASKS_EXTENSION_ID]: {} } },
        [META.clientInfo]: clientInfo,
      });
    }
  });

  it('derives capabilities from the registered handlers, as objects', async () => {
    const { transport, client: c } = client(() => ack, {
      handlers: {
        elicitation: () => ({ action: 'cancel' }),
        sampling: async () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: '' } }),
        roots: () => ({ roots: [] }),
      },
      capabilities: { elicitation: { url: {} } },
    });
    await c.request('ping');
    expect(meta(transport.requests[0]!.message)[META.clientCapabilities]).toEqual({
      elicitation: { form: {}, url: {} },
      sampling: {},
      roots: {},
      extensions: { [TASKS_EXTENSION_ID]: {} },
    });
  });

  it('omits the Tasks extension when task support is off', async () => {
    const { transport, client: c } = client(() => ack, { tasks: false });
    await c.request('ping');
    expect(meta(transport.requests[0]!.message)[META.clientCapabilities]).toEqual({});
  });

  it('keeps caller _meta keys but never lets them override the envelope', async () => {
    const { transport, client: c } = client(() => ack);
    await c.request('ping', { _meta: { traceparent: 'x', [META.protocolVersion]: 'bogus' } });
    expect(meta(transport.requests[0]!.message)).toMatchObject({
      traceparent: 'x',
      [META.protocolVersion]: '2026-07-28',
    });
  });

  it('uses a fresh JSON-RPC id for every request', async () => {
    const { transport, client: c } = client(() => ack);
    await c.request('a');
    await c.request('b');
    const ids = transport.requests.map((r) => r.message.id);
    expect(new Set(ids).size).toBe(2);
  });
});

describe('protocol version negotiation', () => {
  const versionError = (supported: string[]) => ({
    error: {
      code: ErrorCode.UnsupportedProtocolVersion,
      message: 'Unsupported protocol version',
      data: { supported, requested: 'x' },
    },
  });

  it('retries once with a version from data.supported that it speaks, with a new id, and keeps it', async () => {
    const { transport, client: c } = client(
      (_req, { index }) => (index === 0 ? versionError(['1999-01-01', '2026-07-28']) : ack),
      {
        protocolVersions: ['2030-01-01', '2026-07-28'],
      },
    );
    await c.request('tools/list');
    await c.request('prompts/list');
    const versions = transport.requests.map((r) => meta(r.message)[META.protocolVersion]);
    expect(versions).toEqual(['2030-01-01', '2026-07-28', '2026-07-28']);
    expect(transport.requests[0]!.message.id).not.toBe(transport.requests[1]!.message.id);
    expect(c.protocolVersion).toBe('2026-07-28');
  });

  it('fails with a clear -32022 error when no version is shared', async () => {
    const { transport, client: c } = client(() => versionError(['2025-11-25']));
    const error = await c.request('tools/list').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32022, message: expect.stringContaining('2025-11-25') });
    expect(transport.requests).toHaveLength(1);
  });

  it('retries only once', async () => {
    const { transport, client: c } = client(() => versionError(['2026-07-28']));
    await expect(c.request('tools/list')).rejects.toMatchObject({ code: -32022 });
    expect(transport.requests).toHaveLength(2);
  });
});

describe('responses', () => {
  it('turns JSON-RPC errors into ProtocolError with code, message and data', async () => {
    const { client: c } = client(() => ({ error: { code: -32601, message: 'no such method', data: { m: 1 } } }));
    const error = await c.request('nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32601, message: 'no such method', data: { m: 1 } });
  });

  it.each([
    ['absent (2026-07-28 schema)', {}],
    ['null (JSON-RPC 2.0)', { id: null }],
  ])('takes an error response whose id is %s as the answer (e.g. an HTTP 401)', async (_name, id) => {
    const { client: c } = client(() => ({
      raw: { jsonrpc: '2.0', ...id, error: { code: -32600, message: 'Unauthorized' } },
    }));
    await expect(c.request('tools/list')).rejects.toMatchObject({ code: -32600, message: 'Unauthorized' });
  });

  it('rejects an error response carrying another request id', async () => {
    const { client: c } = client(() => ({ raw: { jsonrpc: '2.0', id: 999, error: { code: -1, message: 'x' } } }));
    await expect(c.request('tools/list')).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('treats a missing resultType as complete (C5)', async () => {
    const { client: c } = client(() => ({ content: [{ type: 'text', text: 'hi' }] }));
    await expect(c.callTool('t')).resolves.toMatchObject({ content: [{ text: 'hi' }] });
  });

  it.each([
    ['an unknown resultType (C5)', { resultType: 'mystery' }],
    ['a non-string resultType', { resultType: 7 }],
  ])('rejects %s as an invalid response', async (_name, reply) => {
    const { client: c } = client(() => reply);
    await expect(c.callTool('t')).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('rejects a task result when the request did not declare the extension (C4)', async () => {
    const { transport, client: c } = client(() => created(), { tasks: false });
    await expect(c.callTool('t')).rejects.toThrow(/did not declare the Tasks extension/);
    expect(transport.calls('tasks/get')).toHaveLength(0);
  });

  it('rejects a task result for any method other than tools/call (C4)', async () => {
    const { client: c } = client(() => created());
    await expect(c.getPrompt('p')).rejects.toBeInstanceOf(InvalidResponseError);
    await expect(c.listTools()).rejects.toBeInstanceOf(InvalidResponseError);
    await expect(c.getTask('t-1')).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('rejects input_required on a method that cannot use MRTR', async () => {
    const { client: c } = client(() => ({ resultType: 'input_required', requestState: 's' }));
    await expect(c.listTools()).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it.each([
    ['a non-JSON-RPC value', 'garbage'],
    ['a response without jsonrpc', { id: 1, result: {} }],
    ['a response with a wrong id', { jsonrpc: '2.0', id: 999, result: {} }],
    ['a result that is not an object', { jsonrpc: '2.0', id: 1, result: [1] }],
    ['a malformed error', { jsonrpc: '2.0', id: 1, error: { code: 'x' } }],
  ])('rejects %s as an invalid response, never hangs', async (_name, raw) => {
    const { client: c } = client(() => ({ raw }));
    await expect(c.request('ping')).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('validates results against their schema (ingress validation)', async () => {
    const { client: c } = client(() => ({ resultType: 'complete', tools: 'nope' }));
    await expect(c.listTools()).rejects.toThrow(/does not match its schema/);
  });

  it('lets transport failures through as TransportError', async () => {
    const { client: c } = client(() => {
      throw new TransportError('closed', 'gone');
    });
    await expect(c.request('ping')).rejects.toBeInstanceOf(TransportError);
  });
});
