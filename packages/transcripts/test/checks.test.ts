import { describe, expect, it } from 'vitest';
import { runCheck } from '../src/checks.js';
import type { Observation } from '../src/observation.js';

const ALL = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } };
const meta = (caps: object = ALL) => ({ _meta: { 'io.modelcontextprotocol/clientCapabilities': caps } });

function exchange(
  method: string,
  params: object,
  result: object | undefined,
  extra: Partial<Observation> = {},
): Observation {
  return {
    as: 'main',
    method,
    params: { ...meta(), ...params },
    response: result === undefined ? { error: { code: -32602, message: 'not found' } } : { result },
    notifications: [],
    answeredAt: 0,
    ...extra,
  };
}
const created = exchange('tools/call', { name: 'x' }, { resultType: 'task', taskId: 'T1', status: 'working' });
const get = (task: object) => exchange('tasks/get', { taskId: 'T1' }, { taskId: 'T1', ...task });
const ask = (key: string, message: string) => ({ [key]: { method: 'elicitation/create', params: { message } } });

describe('terminal-immutable and one-terminal-state', () => {
  it('pass when a finished task stays equal, even once it is gone', () => {
    const log = [
      created,
      get({ status: 'completed', result: { a: 1 } }),
      get({ status: 'completed', result: { a: 1 } }),
      exchange('tasks/get', { taskId: 'T1' }, undefined),
    ];
    expect(runCheck('terminal-immutable', log, undefined)).toEqual({ outcome: 'pass' });
    expect(runCheck('one-terminal-state', log, undefined)).toEqual({ outcome: 'pass' });
  });

  it('fail when a nested field, the status, or a gone task changes', () => {
    const changed = [
      created,
      get({ status: 'completed', result: { a: 1 } }),
      get({ status: 'completed', result: { a: 2 } }),
    ];
    expect(runCheck('terminal-immutable', changed, undefined)).toMatchObject({
      outcome: 'fail',
      reason: expect.stringMatching(/changed after it finished/),
    });
    const flipped = [created, get({ status: 'completed' }), get({ status: 'cancelled' })];
    expect(runCheck('one-terminal-state', flipped, undefined)).toMatchObject({
      outcome: 'fail',
      reason: 'task T1 was seen completed and cancelled',
    });
    const back = [
      created,
      get({ status: 'completed' }),
      exchange('tasks/get', { taskId: 'T1' }, undefined),
      get({ status: 'completed' }),
    ];
    expect(runCheck('terminal-immutable', back, undefined)).toMatchObject({
      outcome: 'fail',
      reason: 'task T1 came back after it was gone',
    });
    expect(runCheck('terminal-immutable', [created], undefined)).toMatchObject({ outcome: 'fail' });
  });
});

describe('input-keys-unique', () => {
  it('passes for keys that stay with their request and never come back', () => {
    const log = [
      created,
      get({ status: 'input_required', inputRequests: { ...ask('a', '1'), ...ask('b', '2') } }),
      get({ status: 'input_required', inputRequests: ask('b', '2') }),
      get({ status: 'completed' }),
    ];
    expect(runCheck('input-keys-unique', log, undefined)).toEqual({ outcome: 'pass' });
  });

  it('fails for a key reused for another request or back after it was retired', () => {
    const reused = [
      created,
      get({ status: 'input_required', inputRequests: ask('a', '1') }),
      get({ status: 'input_required', inputRequests: ask('a', '2') }),
    ];
    expect(runCheck('input-keys-unique', reused, undefined)).toMatchObject({
      outcome: 'fail',
      reason: 'task T1 reused input key a for another request',
    });
    const back = [
      created,
      get({ status: 'input_required', inputRequests: ask('a', '1') }),
      get({ status: 'working' }),
      get({ status: 'input_required', inputRequests: ask('a', '1') }),
    ];
    expect(runCheck('input-keys-unique', back, undefined)).toMatchObject({
      outcome: 'fail',
      reason: 'task T1 reused input key a after it was answered',
    });
  });
});

describe('declared-input-kinds', () => {
  it('fails when a task asks a kind its creating call did not declare', () => {
    const call = exchange(
      'tools/call',
      { name: 'x', ...meta({ extensions: {} }) },
      { resultType: 'task', taskId: 'T1', status: 'working' },
    );
    const log = [call, get({ status: 'input_required', inputRequests: ask('a', '1') })];
    expect(runCheck('declared-input-kinds', log, undefined)).toMatchObject({
      outcome: 'fail',
      reason: 'task T1 asked elicitation/create (key a) which the client did not declare',
    });
    expect(
      runCheck(
        'declared-input-kinds',
        [created, get({ status: 'input_required', inputRequests: ask('a', '1') })],
        undefined,
      ),
    ).toEqual({ outcome: 'pass' });
  });
});

describe('principal-isolation', () => {
  it('is skipped with the reason when there is no second principal', () => {
    expect(runCheck('principal-isolation', [created], 'no second principal configured')).toEqual({
      outcome: 'skip',
      reason: 'needs a second principal: no second principal configured',
    });
  });

  it('fails when the second principal sees the task or acts on it', () => {
    const other = { as: 'other' as const };
    const denied = exchange('tasks/get', { taskId: 'T1' }, undefined, other);
    expect(runCheck('principal-isolation', [created, denied], undefined)).toEqual({ outcome: 'pass' });
    const seen = exchange('tasks/get', { taskId: 'T1' }, { taskId: 'T1', status: 'working' }, other);
    expect(runCheck('principal-isolation', [created, seen], undefined)).toMatchObject({
      outcome: 'fail',
      reason: 'tasks/get as the second principal revealed task T1',
    });
    const cancelled = exchange('tasks/cancel', { taskId: 'T1' }, { resultType: 'complete' }, other);
    expect(runCheck('principal-isolation', [created, cancelled], undefined)).toMatchObject({
      outcome: 'fail',
      reason: 'tasks/cancel as the second principal succeeded',
    });
  });
});
