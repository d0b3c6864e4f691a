import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CallToolRequestSchema,
  ClientCapabilitiesSchema,
  CreateTaskResultSchema,
  GetTaskRequestSchema,
  GetTaskResultSchema,
  JSONRPCErrorResponseSchema,
  META,
  MissingRequiredClientCapabilityErrorSchema,
  ServerCapabilitiesSchema,
  TaskStatusNotificationSchema,
  UpdateTaskRequestSchema,
  UpdateTaskResultSchema,
} from '../src/index.js';
import { coreErrors, tasksErrors } from './jsonSchema.js';
import { loadTaskExamples, type TaskExample } from './specPaths.js';

/** Which schema an example exemplifies, the part of it that schema covers, and the spec JSON Schema def for it. */
interface Classified {
  readonly type: string;
  readonly schema: z.ZodType;
  readonly part: unknown;
  readonly jsonSchema: readonly ['core' | 'tasks', string];
}

const BY_METHOD: Record<string, Omit<Classified, 'part'>> = {
  'tools/call': { type: 'CallToolRequest', schema: CallToolRequestSchema, jsonSchema: ['core', 'CallToolRequest'] },
  'tasks/get': { type: 'GetTaskRequest', schema: GetTaskRequestSchema, jsonSchema: ['tasks', 'GetTaskRequest'] },
  'tasks/update': {
    type: 'UpdateTaskRequest',
    schema: UpdateTaskRequestSchema,
    jsonSchema: ['tasks', 'UpdateTaskRequest'],
  },
  'notifications/tasks': {
    type: 'TaskStatusNotification',
    schema: TaskStatusNotificationSchema,
    jsonSchema: ['tasks', 'TaskStatusNotification'],
  },
};

/**
 * Classifies by shape. A result with a task payload (`result`, `error`, `inputRequests`) or `resultType:
 * "complete"` is a `tasks/get` result; a bare task with `resultType: "task"` is a CreateTaskResult.
 */
function classify({ value }: TaskExample): Classified {
  if (typeof value.method === 'string') {
    const known = BY_METHOD[value.method];
    if (!known) throw new Error(`unclassified method ${value.method}`);
    return { ...known, part: value };
  }
  if (value.error !== undefined) {
    return (value.error as { code: number }).code === -32021
      ? {
          type: 'MissingRequiredClientCapabilityError',
          schema: MissingRequiredClientCapabilityErrorSchema,
          part: value,
          jsonSchema: ['core', 'MissingRequiredClientCapabilityError'],
        }
      : {
          type: 'JSONRPCErrorResponse',
          schema: JSONRPCErrorResponseSchema,
          part: value,
          jsonSchema: ['core', 'JSONRPCErrorResponse'],
        };
  }
  const result = value.result as Record<string, unknown>;
  if (value.jsonrpc === undefined) {
    // Capability-negotiation fragments ("Other request parameters..."): only the capabilities object is shown.
    return value.params !== undefined
      ? {
          type: 'ClientCapabilities (fragment)',
          schema: ClientCapabilitiesSchema,
          part: (value.params as { _meta: Record<string, unknown> })._meta[META.clientCapabilities],
          jsonSchema: ['core', 'ClientCapabilities'],
        }
      : {
          type: 'ServerCapabilities (fragment)',
          schema: ServerCapabilitiesSchema,
          part: result.capabilities,
          jsonSchema: ['core', 'ServerCapabilities'],
        };
  }
  if (result.taskId === undefined) {
    return {
      type: 'UpdateTaskResult',
      schema: UpdateTaskResultSchema,
      part: result,
      jsonSchema: ['tasks', 'UpdateTaskResult'],
    };
  }
  const hasPayload = 'result' in result || 'error' in result || 'inputRequests' in result;
  return hasPayload || result.resultType === 'complete'
    ? { type: 'GetTaskResult', schema: GetTaskResultSchema, part: result, jsonSchema: ['tasks', 'GetTaskResult'] }
    : {
        type: 'CreateTaskResult',
        schema: CreateTaskResultSchema,
        part: result,
        jsonSchema: ['tasks', 'CreateTaskResult'],
      };
}

const NO_META = 'CORE + Decision 3: every request carries the per-request _meta; the example omits it';
const STALE_TASK =
  'Decision 1: a tasks/get result (it carries the terminal payload) has resultType "complete", not "task"';

/** Examples the normative text rejects, by `file:line` of the fence, with the reason. */
const REJECTED: Record<string, string> = {
  'tasks-extension/tasks.md:265': NO_META,
  'tasks-extension/tasks.md:519': 'CORE: _meta lacks the required protocolVersion ("// Other metadata..." elides it)',
  'tasks-extension/tasks.md:559': NO_META,
  'tasks-extension/tasks.md:594': NO_META,
  'tasks-extension/tasks.md:639': NO_META,
  'tasks-extension/tasks.md:684': NO_META,
  'tasks-extension/tasks.md:717': NO_META,
  'tasks-extension/tasks.md:746': NO_META,
  'tasks-extension/tasks.md:841': STALE_TASK,
  'tasks-extension/tasks.md:865': STALE_TASK,
  'seps/2663-tasks-extension.md:267': NO_META,
  'seps/2663-tasks-extension.md:523':
    'CORE: _meta lacks the required protocolVersion ("// Other metadata..." elides it)',
  'seps/2663-tasks-extension.md:563': NO_META,
  'seps/2663-tasks-extension.md:594': NO_META,
  'seps/2663-tasks-extension.md:639': NO_META,
  'seps/2663-tasks-extension.md:684': NO_META,
  'seps/2663-tasks-extension.md:717': NO_META,
  'seps/2663-tasks-extension.md:746': NO_META,
  'seps/2663-tasks-extension.md:839': STALE_TASK,
  'seps/2663-tasks-extension.md:863': STALE_TASK,
};

const blocks = loadTaskExamples();
const accepted = blocks.filter((b) => !(b.where in REJECTED));
const rejected = blocks.filter((b) => b.where in REJECTED);

describe('Tasks extension examples (tasks.md, SEP-2663)', () => {
  it('finds the examples, and every listed rejection names a real example', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(50);
    const wheres = blocks.map((b) => b.where);
    for (const where of Object.keys(REJECTED)) expect(wheres).toContain(where);
  });

  it.each(accepted.map((b) => [b.where, classify(b).type, b] as const))(
    '%s (%s) parses, and the spec JSON Schema agrees',
    (_where, _type, block) => {
      const { schema, part, jsonSchema } = classify(block);
      const result = schema.safeParse(part);
      expect(result.error?.issues).toBeUndefined();
      expect(result.data).toEqual(part);
      const [which, def] = jsonSchema;
      expect(which === 'core' ? coreErrors(def, part) : tasksErrors(def, part)).toEqual([]);
    },
  );

  it.each(rejected.map((b) => [b.where, classify(b).type, b] as const))(
    '%s (%s) is rejected',
    (where, _type, block) => {
      const { schema, part } = classify(block);
      expect(schema.safeParse(part).success, REJECTED[where]).toBe(false);
    },
  );
});
