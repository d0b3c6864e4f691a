import { describe, expect, it } from 'vitest';
import { fill, matchValue, readPath } from '../src/matchValue.js';
import { normalizeForPack } from '../src/normalizeForPack.js';

const vars = new Map<string, unknown>([
  ['taskId', 't-1'],
  ['input1', 'input-3'],
]);

describe('matchValue', () => {
  it('matches listed keys, ignores extra ones, and names the first path that differs', () => {
    expect(
      matchValue({ result: { status: 'working' } }, { result: { status: 'working', extra: 1 } }, vars),
    ).toBeUndefined();
    expect(matchValue({ result: { status: 'working' } }, { result: { status: 'completed' } }, vars)).toBe(
      '$.result.status: expected "working", got "completed"',
    );
    expect(matchValue({ a: 1 }, {}, vars)).toBe('$.a: missing, expected 1');
    expect(matchValue([1, 2], [1], vars)).toBe('$: expected an array of 2, got [1]');
  });

  it('understands the placeholders', () => {
    expect(matchValue('<any>', undefined, vars)).toBeUndefined();
    expect(matchValue('<present>', undefined, vars)).toBe('$: missing');
    expect(matchValue('<absent>', 1, vars)).toBe('$: expected no value, got 1');
    expect(matchValue('<string>', 1, vars)).toMatch(/expected a string/);
    expect(matchValue('<number>', 2, vars)).toBeUndefined();
    expect(matchValue('<iso8601>', '2026-11-24T18:00:00.000Z', vars)).toBeUndefined();
    expect(matchValue('<iso8601>', 'yesterday', vars)).toMatch(/ISO 8601/);
    expect(matchValue({ '<oneOf>': ['completed', 'cancelled'] }, 'cancelled', vars)).toBeUndefined();
    expect(matchValue({ '<oneOf>': ['completed', 'cancelled'] }, 'failed', vars)).toMatch(/none of the alternatives/);
    expect(matchValue({ '<count>': 2 }, { a: 1, b: 2 }, vars)).toBeUndefined();
    expect(matchValue({ '<count>': 2 }, { a: 1 }, vars)).toMatch(/expected 2 entries/);
  });

  it('compares captured values, in values and in keys; an unknown capture fails', () => {
    expect(matchValue({ taskId: '{{taskId}}' }, { taskId: 't-1' }, vars)).toBeUndefined();
    expect(matchValue({ taskId: '{{taskId}}' }, { taskId: 't-2' }, vars)).toMatch(/expected "t-1", got "t-2"/);
    expect(matchValue({ '{{input1}}': '<present>' }, { 'input-3': {} }, vars)).toBeUndefined();
    expect(matchValue('id {{taskId}}', 'id t-1', vars)).toBeUndefined();
    expect(matchValue('{{nope}}', 'x', vars)).toBe('$: nothing captured as {{nope}}');
  });
});

describe('fill and readPath', () => {
  it('fills placeholders in values and keys, and reads dot paths and object keys', () => {
    expect(fill({ taskId: '{{taskId}}', inputResponses: { '{{input1}}': { n: 'a {{taskId}}' } } }, vars)).toEqual({
      taskId: 't-1',
      inputResponses: { 'input-3': { n: 'a t-1' } },
    });
    expect(() => fill('{{nope}}', vars)).toThrow('nothing captured as {{nope}}');
    const body = { result: { inputRequests: { k1: {}, k2: {} } } };
    expect(readPath(body, 'result.inputRequests.$keys[1]')).toBe('k2');
    expect(readPath(body, 'result.missing.deeper')).toBeUndefined();
  });
});

describe('normalizeForPack', () => {
  it('replaces captured values, times and server-chosen fields, and keeps the rest', () => {
    const answer = {
      result: {
        taskId: 't-1',
        status: 'input_required',
        createdAt: '2026-11-24T18:00:00.000Z',
        ttlMs: 3000,
        pollIntervalMs: 250,
        statusMessage: 'asking',
        inputRequests: { 'input-3': { method: 'elicitation/create' } },
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'x' } },
      },
      error: { code: -32602, message: 'no task t-1' },
    };
    expect(normalizeForPack(answer, vars)).toEqual({
      result: {
        taskId: '{{taskId}}',
        status: 'input_required',
        createdAt: '<iso8601>',
        ttlMs: '<number>',
        pollIntervalMs: '<number>',
        statusMessage: '<any>',
        inputRequests: { '{{input1}}': { method: 'elicitation/create' } },
        _meta: { 'io.modelcontextprotocol/serverInfo': '<any>' },
      },
      error: { code: -32602, message: '<string>' },
    });
    expect(matchValue(normalizeForPack(answer, vars), answer, vars)).toBeUndefined();
  });
});
