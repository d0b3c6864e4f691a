import { META, type RequestContext, TASKS_EXTENSION_ID, type TransportNotification } from '@mcp-tasks/protocol';
import type { McpServer } from '@mcp-tasks/server';

/** The conformance harness's default client capabilities. */
export const BASE_CAPS = { sampling: {}, elicitation: {}, roots: { listChanged: true } };
/** The same plus the Tasks extension (the harness's `EXT`). */
export const EXT_CAPS = { ...BASE_CAPS, extensions: { [TASKS_EXTENSION_ID]: {} } };

export type Result = Record<string, unknown> & { resultType?: string };
export type WireError = { code: number; message: string; data?: unknown };
export type Options = { caps?: object; meta?: Record<string, unknown> };

const TERMINAL = ['completed', 'failed', 'cancelled'];
let nextId = 1;

/** Sends raw JSON-RPC requests straight into `server.handle`, as a transport would, with a valid 2026 `_meta`. */
export class Loopback {
  constructor(
    readonly server: McpServer,
    readonly caps: object = EXT_CAPS,
  ) {}

  /** Sends a request; resolves with the response and the notifications sent for it. */
  async send(method: string, params: Record<string, unknown> = {}, options: Options = {}) {
    const notifications: TransportNotification[] = [];
    const context: RequestContext = {
      notify: (notification) => notifications.push(notification),
      signal: new AbortController().signal,
    };
    const message = {
      jsonrpc: '2.0',
      id: nextId++,
      method,
      params: {
        ...params,
        _meta: {
          [META.protocolVersion]: '2026-07-28',
          [META.clientCapabilities]: options.caps ?? this.caps,
          ...options.meta,
        },
      },
    };
    const response = await this.server.handle(message, context);
    if (response === undefined) throw new Error('no response');
    return { response, notifications };
  }

  /** Sends a request that must succeed; resolves with its result. */
  async ok(method: string, params: Record<string, unknown> = {}, options: Options = {}): Promise<Result> {
    const { response } = await this.send(method, params, options);
    if (!('result' in response)) throw new Error(`expected a result, got ${JSON.stringify(response.error)}`);
    return response.result as Result;
  }

  /** Sends a request that must fail; resolves with its error. */
  async fail(method: string, params: Record<string, unknown> = {}, options: Options = {}): Promise<WireError> {
    const { response } = await this.send(method, params, options);
    if (!('error' in response)) throw new Error(`expected an error, got ${JSON.stringify(response.result)}`);
    return response.error as WireError;
  }

  /** Calls a tool; resolves with its result. */
  call(name: string, args: Record<string, unknown> = {}, options: Options & { extra?: object } = {}) {
    return this.ok('tools/call', { name, arguments: args, ...options.extra }, options);
  }

  /** Calls a task tool and returns the new task's id (fails unless the result is a CreateTaskResult). */
  async startTask(name: string, args: Record<string, unknown> = {}): Promise<string> {
    const result = await this.call(name, args);
    if (result.resultType !== 'task' || typeof result.taskId !== 'string') {
      throw new Error(`expected a task, got ${JSON.stringify(result)}`);
    }
    return result.taskId;
  }

  /** Polls `tasks/get` until `predicate` holds (deadline 10 s; the tools here do real work). */
  async waitForTask(taskId: string, predicate: (task: Result) => boolean): Promise<Result> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const task = await this.ok('tasks/get', { taskId });
      if (predicate(task)) return task;
      if (Date.now() > deadline) throw new Error(`task ${taskId} never matched; last ${JSON.stringify(task)}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  /** Polls until the task is terminal. */
  waitForTerminal(taskId: string): Promise<Result> {
    return this.waitForTask(taskId, (task) => TERMINAL.includes(String(task.status)));
  }

  /** Polls until the task is `input_required` and returns its `inputRequests`. */
  async waitForInput(taskId: string): Promise<Record<string, { method: string; params: Record<string, unknown> }>> {
    const task = await this.waitForTask(taskId, (t) => t.status === 'input_required');
    return task.inputRequests as Record<string, { method: string; params: Record<string, unknown> }>;
  }
}

/** The text of the first content block of a tool result. */
export function firstText(result: Result | undefined): string {
  const content = result?.content as { text?: string }[] | undefined;
  return content?.[0]?.text ?? '';
}
