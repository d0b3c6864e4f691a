import { META, type RequestContext, TASKS_EXTENSION_ID, type TransportNotification } from '@mcp-tasks/protocol';
import { expect } from 'vitest';
import type { McpServer } from '../src/index.js';

/** Client capabilities the conformance harness sends by default. */
export const BASE_CAPS = { sampling: {}, elicitation: {}, roots: { listChanged: true } };
/** The same plus the Tasks extension (the harness's `EXT`). */
export const EXT_CAPS = { ...BASE_CAPS, extensions: { [TASKS_EXTENSION_ID]: {} } };
export const TASKS_ONLY = { extensions: { [TASKS_EXTENSION_ID]: {} } };

/** The yes/no elicitation the durable-execution tests ask (and park). */
export const ASK = {
  message: 'Approve?',
  requestedSchema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } },
};

let nextId = 1;

/** Builds a request message with a valid 2026-07-28 `_meta`. */
export function request(
  method: string,
  params: Record<string, unknown> = {},
  options: { caps?: object; meta?: Record<string, unknown>; id?: string | number } = {},
) {
  return {
    jsonrpc: '2.0' as const,
    id: options.id ?? nextId++,
    method,
    params: {
      ...params,
      _meta: {
        [META.protocolVersion]: '2026-07-28',
        [META.clientInfo]: { name: 'test-client', version: '1.0.0' },
        [META.clientCapabilities]: options.caps ?? EXT_CAPS,
        ...options.meta,
      },
    },
  };
}

/** A fake transport context collecting the notifications of one request. */
export function fakeContext(options: { principal?: string } = {}) {
  const notifications: TransportNotification[] = [];
  const controller = new AbortController();
  const context: RequestContext = {
    ...(options.principal === undefined ? {} : { principal: options.principal }),
    notify: (notification) => notifications.push(notification),
    signal: controller.signal,
  };
  return { context, notifications, abort: () => controller.abort() };
}

type Result = Record<string, unknown> & { resultType?: string };
type WireError = { code: number; message: string; data?: unknown };

/** A loopback client that sends raw JSON-RPC objects straight into `server.handle`. */
export class Loopback {
  constructor(
    readonly server: McpServer,
    readonly options: { caps?: object; principal?: string } = {},
  ) {}

  /** Sends a request; resolves with the whole response and the notifications sent for it. */
  async send(
    method: string,
    params: Record<string, unknown> = {},
    options: { caps?: object; meta?: Record<string, unknown> } = {},
  ) {
    const fake = fakeContext({
      ...(this.options.principal === undefined ? {} : { principal: this.options.principal }),
    });
    const caps = options.caps ?? this.options.caps;
    const message = request(method, params, {
      ...(caps ? { caps } : {}),
      ...(options.meta ? { meta: options.meta } : {}),
    });
    const response = await this.server.handle(message, fake.context);
    if (response === undefined) throw new Error('no response');
    return { response, notifications: fake.notifications, id: message.id };
  }

  /** Sends a request that must succeed; resolves with its result. */
  async ok(method: string, params: Record<string, unknown> = {}, options: Parameters<Loopback['send']>[2] = {}) {
    const { response } = await this.send(method, params, options);
    if (!('result' in response)) throw new Error(`expected a result, got ${JSON.stringify(response.error)}`);
    return response.result as Result;
  }

  /** Sends a request that must fail; resolves with its error object. */
  async fail(method: string, params: Record<string, unknown> = {}, options: Parameters<Loopback['send']>[2] = {}) {
    const { response } = await this.send(method, params, options);
    if (!('error' in response)) throw new Error(`expected an error, got ${JSON.stringify(response.result)}`);
    return response.error as WireError;
  }

  /** Calls a tool; resolves with the result. */
  call(name: string, args: Record<string, unknown> = {}, options: Parameters<Loopback['send']>[2] = {}) {
    return this.ok('tools/call', { name, arguments: args }, options);
  }

  /** Polls `tasks/get` until `predicate` holds (deadline 5 s). */
  async waitForTask(taskId: string, predicate: (task: Result) => boolean): Promise<Result> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const task = await this.ok('tasks/get', { taskId });
      if (predicate(task)) return task;
      if (Date.now() > deadline) throw new Error(`task ${taskId} never matched; last ${JSON.stringify(task)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Polls until the task is terminal. */
  waitForTerminal(taskId: string) {
    return this.waitForTask(taskId, (task) => ['completed', 'failed', 'cancelled'].includes(String(task.status)));
  }
}

/** A promise with its resolver exposed (a gate a test opens to let a tool continue). */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Asserts a result is a flat CreateTaskResult (S6, S8) and returns its taskId. */
export function expectCreateTask(result: Result): string {
  expect(result.resultType).toBe('task');
  expect(typeof result.taskId).toBe('string');
  for (const key of ['task', 'result', 'error', 'inputRequests', 'requestState'])
    expect(result).not.toHaveProperty(key);
  expect(result.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  expect(result.lastUpdatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
  expect(result).toHaveProperty('ttlMs');
  return result.taskId as string;
}
