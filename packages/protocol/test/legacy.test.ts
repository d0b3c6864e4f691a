/**
 * The 2025-era wire schemas agree with the 2025-11-25 `schema.json`: what the spec accepts parses, what it
 * rejects fails, field for field.
 */
import { describe, expect, it } from 'vitest';
import {
  InitializeRequestParamsSchema,
  InitializeResultSchema,
  isLegacyProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LegacyCreateTaskResultSchema,
  LegacyListTasksResultSchema,
  LegacyTaskSchema,
} from '../src/index.js';
import { legacyErrors } from './jsonSchema.js';

const task = {
  taskId: 't-1',
  status: 'working',
  createdAt: '2025-11-25T10:30:00Z',
  lastUpdatedAt: '2025-11-25T10:30:00Z',
  ttl: 60_000,
  pollInterval: 5_000,
};

const cases: Array<
  [def: string, schema: { safeParse(v: unknown): { success: boolean } }, value: unknown, valid: boolean]
> = [
  ['Task', LegacyTaskSchema, task, true],
  ['Task', LegacyTaskSchema, { ...task, ttl: null, statusMessage: 'waiting' }, true],
  ['Task', LegacyTaskSchema, { ...task, status: 'submitted' }, false],
  ['Task', LegacyTaskSchema, { ...task, ttl: undefined }, false],
  ['Task', LegacyTaskSchema, { ...task, createdAt: undefined }, false],
  ['CreateTaskResult', LegacyCreateTaskResultSchema, { task }, true],
  ['CreateTaskResult', LegacyCreateTaskResultSchema, task, false],
  ['ListTasksResult', LegacyListTasksResultSchema, { tasks: [task], nextCursor: 'c' }, true],
  ['ListTasksResult', LegacyListTasksResultSchema, { tasks: [{ taskId: 'x' }] }, false],
  [
    'InitializeRequestParams',
    InitializeRequestParamsSchema,
    {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: { form: {} }, tasks: { requests: { elicitation: { create: {} } } } },
      clientInfo: { name: 'c', version: '1' },
    },
    true,
  ],
  [
    'InitializeRequestParams',
    InitializeRequestParamsSchema,
    { protocolVersion: '2025-11-25', capabilities: {} },
    false,
  ],
  [
    'InitializeResult',
    InitializeResultSchema,
    {
      protocolVersion: '2025-11-25',
      capabilities: {
        tools: { listChanged: true },
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      serverInfo: { name: 's', version: '1' },
      instructions: 'hi',
    },
    true,
  ],
  ['InitializeResult', InitializeResultSchema, { protocolVersion: '2025-11-25', capabilities: {} }, false],
];

describe('2025-era schemas against the 2025-11-25 schema.json', () => {
  it.each(cases.map((c, i) => [i, ...c] as const))('case %i: %s', (_i, def, schema, value, valid) => {
    expect(legacyErrors(def, value).length === 0).toBe(valid);
    expect(schema.safeParse(value).success).toBe(valid);
  });

  it('knows the 2025 versions and offers the newest', () => {
    expect(isLegacyProtocolVersion('2025-06-18')).toBe(true);
    expect(isLegacyProtocolVersion('2026-07-28')).toBe(false);
    expect(isLegacyProtocolVersion(undefined)).toBe(false);
    expect(LATEST_LEGACY_PROTOCOL_VERSION).toBe('2025-11-25');
  });
});
