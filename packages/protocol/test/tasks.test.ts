import { describe, expect, it } from 'vitest';
import {
  CompletedTaskSchema,
  CreateTaskResultSchema,
  createTaskResult,
  type DetailedTask,
  DetailedTaskSchema,
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
});
