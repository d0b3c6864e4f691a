import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InputHandlerError, InvalidResponseError, McpClient, type McpClientOptions } from '../src/index.js';
import { ack, created, elicit, FakeTransport, polled, type Responder, textResult } from './fakeTransport.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };
const accept = vi.fn(async () => ({ action: 'accept' as const, content: { confirmed: true } }));

function setup(responder: Responder, options: Partial<McpClientOptions> = {}) {
  const transport = new FakeTransport(responder);
  return { transport, client: new McpClient({ transport, clientInfo, handlers: { elicitation: accept }, ...options }) };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
  accept.mockClear();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('multi round-trip requests', () => {
  it('answers inputRequests and retries with a new id, inputResponses and the byte-identical requestState', async () => {
    const state = 'opaque+/=state\u00e9 with spaces';
    const { transport, client } = setup((_req, { index }) =>
      index === 0
        ? { resultType: 'input_required', inputRequests: { confirm: elicit('sure?') }, requestState: state }
        : textResult('done'),
    );
    await expect(client.callTool('t', { x: 1 })).resolves.toMatchObject({ content: [{ text: 'done' }] });
    const [first, retry] = transport.calls('tools/call');
    expect(retry!.id).not.toBe(first!.id);
    expect(retry!.params).toMatchObject({
      name: 't',
      arguments: { x: 1 },
      requestState: state,
      inputResponses: { confirm: { action: 'accept', content: { confirmed: true } } },
    });
    expect(accept).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'sure?' }),
      expect.objectContaining({ key: 'confirm' }),
    );
  });

  it('sends no requestState when the server sent none', async () => {
    const { transport, client } = setup((_req, { index }) =>
      index === 0 ? { resultType: 'input_required', inputRequests: { confirm: elicit('?') } } : textResult('done'),
    );
    await client.callTool('t');
    expect(transport.calls('tools/call')[1]!.params).not.toHaveProperty('requestState');
  });

  it('retries at once with only the requestState when no inputRequests were sent', async () => {
    const { transport, client } = setup((_req, { index }) =>
      index === 0 ? { resultType: 'input_required', requestState: 'S' } : textResult('done'),
    );
    await client.callTool('t');
    const retry = transport.calls('tools/call')[1]!.params;
    expect(retry).toMatchObject({ requestState: 'S' });
    expect(retry).not.toHaveProperty('inputResponses');
    expect(accept).not.toHaveBeenCalled();
  });

  it('accepts a task after an MRTR round and polls it (C22)', async () => {
    const { transport, client } = setup(
      (req, { index }) => {
        if (req.method === 'tools/call') {
          return index === 0
            ? { resultType: 'input_required', inputRequests: { k: elicit('go?') }, requestState: 'S' }
            : created();
        }
        if (req.method === 'tasks/get')
          return polled('input_required', { inputRequests: { k: elicit('again, task key space') } });
        return ack;
      },
      { tasks: { stuckAfterPolls: 1 } },
    );
    const call = client.callTool('t');
    call.catch(() => undefined);
    await vi.runAllTimersAsync();
    await expect(call).rejects.toThrow(/no progress/);
    // The task's key "k" is a different request from the MRTR key "k": both are answered once.
    expect(accept).toHaveBeenCalledTimes(2);
    expect(transport.calls('tasks/update')[0]!.params).toMatchObject({ inputResponses: { k: { action: 'accept' } } });
  });

  it('fails with InvalidResponseError when the server keeps asking beyond maxInputRounds', async () => {
    const { transport, client } = setup(() => ({ resultType: 'input_required', inputRequests: { k: elicit('?') } }), {
      maxInputRounds: 3,
    });
    await expect(client.callTool('t')).rejects.toBeInstanceOf(InvalidResponseError);
    expect(transport.calls('tools/call')).toHaveLength(4);
  });

  it('rejects an InputRequiredResult with neither inputRequests nor requestState', async () => {
    const { client } = setup(() => ({ resultType: 'input_required' }));
    await expect(client.callTool('t')).rejects.toBeInstanceOf(InvalidResponseError);
  });

  it('ends the call when a sampling handler fails (nothing to retry with)', async () => {
    const sampling = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } };
    const { transport, client } = setup(() => ({ resultType: 'input_required', inputRequests: { s: sampling } }), {
      handlers: { sampling: () => Promise.reject(new Error('no model')) },
    });
    await expect(client.callTool('t')).rejects.toBeInstanceOf(InputHandlerError);
    expect(transport.calls('tools/call')).toHaveLength(1);
  });

  it('answers roots and sampling requests with their handlers', async () => {
    const { transport, client } = setup(
      (_req, { index }) =>
        index === 0
          ? {
              resultType: 'input_required',
              inputRequests: {
                r: { method: 'roots/list' },
                s: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } },
              },
            }
          : textResult('ok'),
      {
        handlers: {
          roots: () => ({ roots: [{ uri: 'file:///w' }] }),
          sampling: async () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } }),
        },
      },
    );
    await client.callTool('t');
    expect(transport.calls('tools/call')[1]!.params?.inputResponses).toEqual({
      r: { roots: [{ uri: 'file:///w' }] },
      s: { role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } },
    });
  });

  it('runs MRTR on prompts/get and resources/read too', async () => {
    const { transport, client } = setup((req, { index }) => {
      if (index % 2 === 0) return { resultType: 'input_required', requestState: `S${index}` };
      return req.method === 'prompts/get'
        ? { resultType: 'complete', messages: [] }
        : { resultType: 'complete', contents: [], ttlMs: 60_000 };
    });
    await expect(client.getPrompt('p', { a: 'b' })).resolves.toMatchObject({ messages: [] });
    await expect(client.readResource('file:///x')).resolves.toMatchObject({ contents: [] });
    expect(transport.calls('prompts/get')[1]!.params).toMatchObject({
      name: 'p',
      arguments: { a: 'b' },
      requestState: 'S0',
    });
    expect(transport.calls('resources/read')[1]!.params).toMatchObject({ uri: 'file:///x', requestState: 'S2' });
    // A result that took a retry is never cached (it depends on inputs outside the cache key).
    await client.readResource('file:///x');
    expect(transport.calls('resources/read')).toHaveLength(4);
  });
});
