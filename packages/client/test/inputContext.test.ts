import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { InMemoryTaskJournal, type InputContext, McpClient, type McpClientOptions } from '../src/index.js';
import { ack, created, elicit, FakeTransport, polled, type Responder, textResult } from './fakeTransport.js';

const clientInfo = { name: 'test-client', version: '1.0.0' };

/** A client whose elicitation handler records the context it was given (without the signal). */
function setup(responder: Responder, options: Partial<McpClientOptions> = {}) {
  const seen: Omit<InputContext, 'signal'>[] = [];
  const transport = new FakeTransport(responder);
  const client = new McpClient({
    transport,
    clientInfo,
    handlers: {
      elicitation: (_params, { signal: _signal, ...context }) => {
        seen.push(context);
        return { action: 'accept', content: { ok: true } };
      },
    },
    ...options,
  });
  return { client, seen };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('what input handlers are told about the asking call', () => {
  it('an MRTR round of tools/call: the tool name and arguments, no task id', async () => {
    const { client, seen } = setup((_req, { index }) =>
      index === 0 ? { resultType: 'input_required', inputRequests: { confirm: elicit('sure?') } } : textResult('ok'),
    );
    await client.callTool('deploy', { env: 'prod' });
    expect(seen).toEqual([
      {
        key: 'confirm',
        method: 'tools/call',
        toolName: 'deploy',
        params: { name: 'deploy', arguments: { env: 'prod' } },
        taskId: undefined,
      },
    ]);
  });

  it('C12: an input request of a task reaches the same handler as an MRTR round, told the task id as well', async () => {
    const { client, seen } = setup((req, { index }) => {
      if (req.method === 'tools/call') return created('working');
      if (req.method === 'tasks/update') return ack;
      return index === 1
        ? polled('input_required', { inputRequests: { k: elicit('go?') } })
        : polled('completed', { result: textResult('done') });
    });
    const call = client.callTool('deploy', { env: 'prod' });
    await vi.runAllTimersAsync();
    await call;
    expect(seen).toEqual([
      {
        key: 'k',
        method: 'tools/call',
        toolName: 'deploy',
        params: { name: 'deploy', arguments: { env: 'prod' } },
        taskId: 't-1',
      },
    ]);
  });

  it('a resumed task: the tool name from the journal, or only the task id when the journal does not know it', async () => {
    const journal = new InMemoryTaskJournal();
    journal.add({ taskId: 't-1', method: 'tools/call', name: 'deploy', arguments: { env: 'prod' }, recordedAt: 'x' });
    let asked = false;
    const responder: Responder = (req) => {
      if (req.method === 'tasks/update') return ack;
      if (asked) return polled('completed', { result: textResult('done') });
      asked = true;
      return polled('input_required', { inputRequests: { k: elicit('go?') } });
    };
    const known = setup(responder, { tasks: { journal } });
    const resumed = known.client.resumeTask('t-1');
    await vi.runAllTimersAsync();
    await resumed;
    expect(known.seen).toMatchObject([{ toolName: 'deploy', params: { name: 'deploy', arguments: { env: 'prod' } } }]);

    asked = false;
    const unknown = setup(responder);
    const again = unknown.client.resumeTask('t-1');
    await vi.runAllTimersAsync();
    await again;
    expect(unknown.seen).toEqual([
      { key: 'k', method: 'tools/call', toolName: undefined, params: undefined, taskId: 't-1' },
    ]);
  });
});
