import { RELATED_TASK_META_KEY, type TransportNotification } from '@mcp-tasks/protocol';
import { describe, expect, it, vi } from 'vitest';
import { type InputContext, type InputHandlers, McpClient, type McpClientOptions } from '../../src/index.js';
import { type FakeTransport, textResult, until } from '../fakeTransport.js';
import { type LegacyServerOptions, legacyTransport } from './legacyServer.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };
const form = { message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } };

async function connected(
  handlers: InputHandlers = {},
  options: Partial<McpClientOptions> = {},
  handle?: LegacyServerOptions['handle'],
): Promise<{ transport: FakeTransport; client: McpClient }> {
  const transport = legacyTransport({ handle: handle ?? (() => textResult('ok')) });
  const client = new McpClient({ transport, clientInfo, handlers, ...options });
  await client.connect();
  return { transport, client };
}

describe('answering the server (L-C11..L-C15)', () => {
  it('L-C11: ping is answered {} at once', async () => {
    const { transport } = await connected();
    await expect(transport.serverRequest('ping')).resolves.toEqual({ jsonrpc: '2.0', id: 's-ping', result: {} });
  });

  it('L-C11: requests for undeclared features and unknown methods get -32601', async () => {
    const { transport } = await connected();
    for (const method of ['roots/list', 'sampling/createMessage', 'elicitation/create', 'tasks/list', 'x/y'])
      await expect(transport.serverRequest(method, {})).resolves.toMatchObject({ error: { code: -32601 } });
  });

  it('L-C12: an elicitation without mode is form mode, answered by the elicitation handler', async () => {
    const elicitation = vi.fn((_p: unknown, _c: InputContext) => ({
      action: 'accept' as const,
      content: { name: 'Ada' },
    }));
    const { transport } = await connected({ elicitation });
    await expect(transport.serverRequest('elicitation/create', form)).resolves.toEqual({
      jsonrpc: '2.0',
      id: 's-elicitation/create',
      result: { action: 'accept', content: { name: 'Ada' } },
    });
    expect(elicitation.mock.calls[0]![0]).toMatchObject({ mode: 'form', message: 'Name?' });
  });

  it('L-C12: a URL-mode elicitation when only form mode was declared gets -32602, the handler is not asked', async () => {
    const elicitation = vi.fn(() => ({ action: 'accept' as const }));
    const { transport } = await connected({ elicitation });
    const url = { mode: 'url', message: 'Sign in', url: 'https://example.com/a', elicitationId: 'e1' };
    await expect(transport.serverRequest('elicitation/create', url)).resolves.toMatchObject({
      error: { code: -32602 },
    });
    expect(elicitation).not.toHaveBeenCalled();
  });

  it('L-C12: a URL-mode elicitation is answered when the host declared URL mode', async () => {
    const { transport } = await connected(
      { elicitation: () => ({ action: 'decline' }) },
      { capabilities: { elicitation: { url: {} } } },
    );
    const url = { mode: 'url', message: 'Sign in', url: 'https://example.com/a', elicitationId: 'e1' };
    await expect(transport.serverRequest('elicitation/create', url)).resolves.toMatchObject({
      result: { action: 'decline' },
    });
  });

  it('L-C12: malformed elicitation params get -32602', async () => {
    const { transport } = await connected({ elicitation: () => ({ action: 'decline' }) });
    await expect(transport.serverRequest('elicitation/create', { message: 3 })).resolves.toMatchObject({
      error: { code: -32602 },
    });
  });

  it('L-C13: sampling and roots go to their handlers; a failing sampling handler is an error response', async () => {
    const sampling = vi
      .fn()
      .mockReturnValueOnce({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' })
      .mockRejectedValueOnce(new Error('no model'));
    const { transport } = await connected({ sampling, roots: () => ({ roots: [{ uri: 'file:///w' }] }) });
    const params = { messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }], maxTokens: 5 };
    await expect(transport.serverRequest('sampling/createMessage', params)).resolves.toMatchObject({
      result: { model: 'm', content: { text: 'hi' } },
    });
    await expect(transport.serverRequest('sampling/createMessage', params)).resolves.toMatchObject({
      error: { code: -32603 },
    });
    await expect(transport.serverRequest('roots/list', {})).resolves.toMatchObject({
      result: { roots: [{ uri: 'file:///w' }] },
    });
  });

  it('L-C15: the handler learns the tool call in flight, like an MRTR input request', async () => {
    let release: (value: Record<string, unknown>) => void = () => undefined;
    const contexts: InputContext[] = [];
    const { transport, client } = await connected(
      {
        elicitation: (_params, context) => {
          contexts.push(context);
          return { action: 'decline' };
        },
      },
      {},
      (req) => (req.method === 'tools/call' ? new Promise((resolve) => (release = resolve)) : {}),
    );
    const call = client.callTool('deploy', { env: 'prod' });
    await until(() => transport.calls('tools/call').length === 1, 'the call');
    await transport.serverRequest('elicitation/create', form, 7);
    release(textResult('done'));
    await call;
    expect(contexts[0]).toMatchObject({
      key: '7',
      method: 'tools/call',
      toolName: 'deploy',
      params: { name: 'deploy' },
    });
  });

  it('L-C15: aborting the call aborts the signal of the input request it has open', async () => {
    let seen: AbortSignal | undefined;
    const { transport, client } = await connected(
      {
        elicitation: (_params, context) => {
          seen = context.signal;
          // A prompt that stays open until its signal says to stop.
          return new Promise((resolve) =>
            context.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }),
          );
        },
      },
      {},
      (req) => (req.method === 'tools/call' ? new Promise(() => undefined) : {}),
    );
    const controller = new AbortController();
    const call = client.callTool('deploy', { env: 'prod' }, { signal: controller.signal });
    await until(() => transport.calls('tools/call').length === 1, 'the call');
    const answered = transport.serverRequest('elicitation/create', form, 7);
    await until(() => seen !== undefined, 'the prompt');
    controller.abort(new Error('the user gave up'));
    await expect(call).rejects.toThrow('the user gave up');
    expect(seen?.aborted).toBe(true);
    // The server's question is answered as dismissed, not left open or failed as an internal error.
    await expect(answered).resolves.toMatchObject({ result: { action: 'cancel' } });
  });

  it('L-T20: an answer to a request related to a task carries the related-task _meta and names the task', async () => {
    const elicitation = vi.fn((_p: unknown, _c: InputContext) => ({ action: 'decline' as const }));
    const { transport } = await connected({ elicitation });
    const related = { ...form, _meta: { [RELATED_TASK_META_KEY]: { taskId: 'T9' } } };
    await expect(transport.serverRequest('elicitation/create', related)).resolves.toMatchObject({
      result: { action: 'decline', _meta: { [RELATED_TASK_META_KEY]: { taskId: 'T9' } } },
    });
    expect(elicitation.mock.calls[0]![1]).toMatchObject({ taskId: 'T9' });
  });

  it('notifications outside any request (logs, list changes, task status) reach onNotification', async () => {
    const seen: TransportNotification[] = [];
    const { transport } = await connected({}, { onNotification: (n) => seen.push(n) });
    const log = { jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: 'x' } };
    const changed = { jsonrpc: '2.0' as const, method: 'notifications/tools/list_changed' };
    transport.peer!.onNotification(log);
    transport.peer!.onNotification(changed);
    expect(seen).toEqual([log, changed]);
  });

  it('a throwing onNotification hook does not break the session', async () => {
    const { transport, client } = await connected(
      {},
      {
        onNotification: () => {
          throw new Error('host bug');
        },
      },
    );
    expect(() => transport.peer!.onNotification({ jsonrpc: '2.0', method: 'notifications/message' })).not.toThrow();
    await expect(client.callTool('t')).resolves.toMatchObject({ content: [{ text: 'ok' }] });
  });
});
