import { ErrorCode, type RequestContext } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import {
  LEGACY_TASK_METHODS,
  LegacyEra,
  type LegacyRoute,
  type LegacyRouteRequest,
} from '../../src/era-2025/legacyEra.js';
import { legacyTaskCapabilities, negotiateLegacyVersion } from '../../src/era-2025/legacyInitialize.js';
import { FakeSession } from './legacyHarness.js';

const INIT = {
  protocolVersion: '2025-11-25',
  capabilities: { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } },
  clientInfo: { name: 'c', version: '1' },
};

function era(taskRoutes?: ReadonlyMap<string, LegacyRoute>) {
  const dispatched: { method: string; request: LegacyRouteRequest }[] = [];
  const layer = new LegacyEra({
    identity: { serverInfo: { name: 's', version: '1' } },
    maxSessions: 10,
    tools: new Map(),
    dispatch: async (method, request) => {
      dispatched.push({ method, request });
      return { resultType: 'complete', method };
    },
    owner: () => 'owner',
    ...(taskRoutes === undefined ? {} : { taskRoutes }),
  });
  const session = new FakeSession();
  const context: RequestContext = { notify: () => {}, signal: new AbortController().signal, session };
  return { layer, session, context, dispatched };
}

describe('LegacyEra', () => {
  it('L-S2: negotiateLegacyVersion picks the newest version not above a date, else 2025-11-25', () => {
    expect(negotiateLegacyVersion('2025-06-18')).toBe('2025-06-18');
    expect(negotiateLegacyVersion('2025-10-01')).toBe('2025-06-18');
    expect(negotiateLegacyVersion('2026-07-28')).toBe('2025-11-25');
    expect(negotiateLegacyVersion('2025-01-01')).toBe('2025-11-25');
    expect(negotiateLegacyVersion('')).toBe('2025-11-25');
  });

  it('claims initialize and ping on any session, other messages only once initialized, nothing without a session', async () => {
    const { layer, session, context } = era();
    expect(layer.claims('request', 'initialize', undefined)).toBe(false);
    expect(layer.claims('request', 'ping', session)).toBe(true);
    expect(layer.claims('request', 'tools/list', session)).toBe(false);
    expect(layer.claims('notification', 'notifications/initialized', session)).toBe(false);
    await layer.request(1, 'initialize', INIT, context);
    expect(layer.claims('request', 'tools/list', session)).toBe(true);
    expect(layer.claims('notification', 'notifications/initialized', session)).toBe(true);
  });

  it('builds the envelope from the session: version, capabilities without the 2026 extension, level, token', async () => {
    const { layer, context, dispatched } = era();
    await layer.request(1, 'initialize', INIT, context);
    await layer.request(2, 'logging/setLevel', { level: 'warning' }, context);
    const result = await layer.request(3, 'tools/list', { _meta: { progressToken: 7, custom: 'x' } }, context);
    expect(result).toStrictEqual({ method: 'tools/list' });
    expect(dispatched[0]?.request.envelope).toStrictEqual({
      protocolVersion: '2025-11-25',
      clientCapabilities: { elicitation: {} },
      clientInfo: { name: 'c', version: '1' },
      logLevel: 'warning',
      progressToken: 7,
      meta: { progressToken: 7, custom: 'x' },
    });
  });

  it('the legacy task routes hook serves its methods with the session state and can hand a request back', async () => {
    const seen: string[] = [];
    const taskRoutes = new Map<string, LegacyRoute>([
      [
        'tasks/list',
        async ({ state }) => {
          seen.push(`list ${state.protocolVersion}`);
          return { tasks: [] };
        },
      ],
      [
        'tools/call',
        async ({ params, shared }) => {
          if (params.task === undefined) return shared();
          seen.push('task call');
          return { task: { taskId: 't' } };
        },
      ],
    ]);
    const { layer, context, dispatched } = era(taskRoutes);
    await layer.request(1, 'initialize', INIT, context);
    expect(await layer.request(2, 'tasks/list', {}, context)).toStrictEqual({ tasks: [] });
    expect(await layer.request(3, 'tools/call', { name: 'x', task: {} }, context)).toStrictEqual({
      task: { taskId: 't' },
    });
    expect(await layer.request(4, 'tools/call', { name: 'x' }, context)).toStrictEqual({ method: 'tools/call' });
    expect(seen).toEqual(['list 2025-11-25', 'task call']);
    expect(dispatched.map((d) => d.method)).toEqual(['tools/call']);
  });

  it('without the hook every legacy task method is -32601, and the capability shape is fixed', async () => {
    const { layer, context } = era();
    await layer.request(1, 'initialize', INIT, context);
    for (const method of LEGACY_TASK_METHODS) {
      await expect(layer.request(2, method, { taskId: 't' }, context)).rejects.toMatchObject({
        code: ErrorCode.MethodNotFound,
      });
    }
    expect(legacyTaskCapabilities()).toStrictEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });
});

describe('LegacyEra on an ended session', () => {
  it('refuses initialize with -32600 and keeps no state', async () => {
    const { layer, session, context } = era();
    session.close();
    // `request` may throw synchronously or reject; its caller awaits it inside a `try`, as this does.
    await expect((async () => layer.request(1, 'initialize', INIT, context))()).rejects.toMatchObject({
      code: ErrorCode.InvalidRequest,
    });
    expect(layer.sessions.size).toBe(0);
  });
});
