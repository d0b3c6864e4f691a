import { describe, expect, it } from 'vitest';
import {
  CompletedTaskSchema,
  CreateTaskResultSchema,
  createTaskResult,
  type DetailedTask,
  DetailedTaskSchema,
  detailedTask,
  GetTaskResultSchema,
  getTaskResult,
  META,
  TASKS_EXTENSION_ID,
  TaskStatusSchema,
  TasksExtensionCapabilitySchema,
  taskStatusNotification,
  toTask,
} from '../src/index.js';

const base = { taskId: 't1', createdAt: 'c', lastUpdatedAt: 'u', ttlMs: 1000 };
const completed: DetailedTask = {
  ...base,
  status: 'completed',
  pollIntervalMs: 500,
  result: { resultType: 'complete', content: [], isError: true },
};

describe('Tasks extension types', () => {
  it('uses the extension id and the five statuses', () => {
    expect(TASKS_EXTENSION_ID).toBe('io.modelcontextprotocol/tasks');
    expect(TaskStatusSchema.options).toEqual(['working', 'input_required', 'completed', 'failed', 'cancelled']);
  });

  it('requires the extension settings object to be empty (the extension schema forbids keys)', () => {
    expect(TasksExtensionCapabilitySchema.safeParse({}).success).toBe(true);
    expect(TasksExtensionCapabilitySchema.safeParse({ anything: true }).success).toBe(false);
  });

  it('keeps unknown fields on tasks (loose objects)', () => {
    const withExtra = { ...completed, vendor: { x: 1 } };
    expect(DetailedTaskSchema.parse(withExtra)).toEqual(withExtra);
  });

  it('accepts ttlMs null (unlimited) and rejects a missing ttlMs', () => {
    expect(CompletedTaskSchema.safeParse({ ...completed, ttlMs: null }).success).toBe(true);
    const { ttlMs: _ttl, ...noTtl } = completed;
    expect(CompletedTaskSchema.safeParse(noTtl).success).toBe(false);
  });
});

describe('task message builders', () => {
  it('createTaskResult carries the flat seed only, even for a terminal task (INF, Decision 5)', () => {
    const result = createTaskResult({ ...completed, vendor: 1 } as DetailedTask);
    expect(result).toEqual({ resultType: 'task', ...base, status: 'completed', pollIntervalMs: 500 });
    expect(CreateTaskResultSchema.parse(result)).toEqual(result);
  });

  it('toTask drops undefined optional fields', () => {
    expect(Object.keys(toTask({ ...base, status: 'working' }))).toEqual([
      'taskId',
      'status',
      'createdAt',
      'lastUpdatedAt',
      'ttlMs',
    ]);
  });

  it('getTaskResult marks the DetailedTask resultType "complete" (Decision 1)', () => {
    const result = getTaskResult(completed);
    expect(result).toEqual({ resultType: 'complete', ...completed });
    expect(GetTaskResultSchema.parse(result)).toEqual(result);
  });

  it('taskStatusNotification carries the DetailedTask and subscription id, without resultType (Decision 2)', () => {
    const note = taskStatusNotification(completed, 'sub-1');
    expect(note).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tasks',
      params: { ...completed, _meta: { [META.subscriptionId]: 'sub-1' } },
    });
    expect(note.params).not.toHaveProperty('resultType');
    expect(taskStatusNotification(completed).params).not.toHaveProperty('_meta');
  });

  it('builds from a store record: ignores unknown fields and the payloads the status does not carry', () => {
    const record = {
      ...base,
      owner: 'alice',
      version: 3,
      status: 'working' as const,
      statusMessage: undefined,
      inputRequests: {},
      result: undefined,
      error: undefined,
      requestMeta: { tool: 'x' },
    };
    expect(detailedTask(record)).toEqual({ ...base, status: 'working' });
    expect(Object.keys(detailedTask(record))).toEqual(['taskId', 'status', 'createdAt', 'lastUpdatedAt', 'ttlMs']);
    const asked = {
      ...record,
      status: 'input_required' as const,
      inputRequests: { k: { method: 'roots/list' as const } },
    };
    expect(detailedTask(asked)).toEqual({ ...base, status: 'input_required', inputRequests: asked.inputRequests });
    expect(DetailedTaskSchema.parse(detailedTask(asked))).toEqual(detailedTask(asked));
  });

  it('gives a completed task without a result an empty CallToolResult, a failed one without an error -32603', () => {
    expect(detailedTask({ ...base, status: 'completed' })).toEqual({
      ...base,
      status: 'completed',
      result: { resultType: 'complete', content: [] },
    });
    expect(detailedTask({ ...base, status: 'failed' })).toEqual({
      ...base,
      status: 'failed',
      error: { code: -32603, message: 'Task failed' },
    });
  });

  it('getTaskResult adds _meta only when given', () => {
    const info = { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } };
    expect(getTaskResult(completed, info)._meta).toEqual(info);
    expect(getTaskResult(completed)).not.toHaveProperty('_meta');
  });
});
