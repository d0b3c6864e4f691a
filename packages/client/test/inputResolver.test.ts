import { describe, expect, it } from 'vitest';
import { InputHandlerError } from '../src/index.js';
import { resolveInputRequests } from '../src/inputResolver.js';
import { elicit } from './fakeTransport.js';

const signal = new AbortController().signal;
const origin = { method: 'tools/call', params: { name: 'deploy', arguments: { env: 'prod' } }, taskId: 't-9' };

describe('resolveInputRequests (C12, C14)', () => {
  it('C14: rejects a handler result that is not a valid result for its method', async () => {
    const error = await resolveInputRequests(
      { k: { method: 'roots/list' } },
      { roots: () => ({ roots: 'nope' }) as never },
      signal,
      origin,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputHandlerError);
    expect(error).toMatchObject({ key: 'k', method: 'roots/list' });
  });

  it('passes the request params, key, signal, method, tool name, call params and task id to the handler', async () => {
    const seen: unknown[] = [];
    await resolveInputRequests(
      { k: elicit('hello') as never },
      {
        elicitation: (params, context) => {
          seen.push(params.message, context.key, context.signal === signal);
          seen.push(context.method, context.toolName, context.params, context.taskId);
          return { action: 'decline' };
        },
      },
      signal,
      origin,
    );
    expect(seen).toEqual(['hello', 'k', true, 'tools/call', 'deploy', origin.params, 't-9']);
  });

  it('rejects with the abort reason when aborted while a handler runs, instead of answering cancel', async () => {
    const controller = new AbortController();
    const pending = resolveInputRequests(
      { k: elicit('x') as never },
      {
        elicitation: (_p, { signal: s }) =>
          new Promise((_, reject) => s.addEventListener('abort', () => reject(new Error('inner')))),
      },
      controller.signal,
      origin,
    );
    controller.abort(new Error('outer'));
    await expect(pending).rejects.toThrow('outer');
  });
});
