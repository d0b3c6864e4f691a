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
  META,
  messageEra,
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

describe('messageEra', () => {
  const modernMeta = { _meta: { [META.protocolVersion]: '2026-07-28' } };
  it('is modern when params._meta names a protocol version', () => {
    expect(messageEra({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: modernMeta })).toBe('modern');
    expect(messageEra({ jsonrpc: '2.0', method: 'notifications/cancelled', params: modernMeta })).toBe('modern');
  });
  it('is modern when the header names a version outside the 2025 era, whatever the body', () => {
    expect(messageEra({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, '2026-07-28')).toBe('modern');
    expect(messageEra({ jsonrpc: '2.0', id: 1, method: 'ping' }, '2099-01-01')).toBe('modern');
  });
  it('is legacy for a 2025 handshake even with a 2025 header, and for responses and junk', () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } };
    expect(messageEra(init, '2025-11-25')).toBe('legacy');
    expect(messageEra(init)).toBe('legacy');
    expect(messageEra({ jsonrpc: '2.0', id: 3, result: {} })).toBe('legacy');
    expect(messageEra({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { progressToken: 1 } } })).toBe(
      'legacy',
    );
    expect(messageEra('nonsense')).toBe('legacy');
    expect(messageEra([1, 2])).toBe('legacy');
    expect(messageEra(null)).toBe('legacy');
  });
});
