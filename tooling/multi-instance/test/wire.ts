/** Raw 2026-07-28 requests over HTTP and WebSocket, as any client would send them. */
import { once } from 'node:events';
import { mcpNameField, readSseEvents } from '@mcp-tasks/transport-http';
import { expect, vi } from 'vitest';
import WebSocket from 'ws';

export const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {
    elicitation: {},
    extensions: { 'io.modelcontextprotocol/tasks': {} },
  },
};
export type Result = Record<string, unknown>;
export type Notification = { method: string; params: Result };

let nextId = 1;
const message = (method: string, params: Result) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method,
  params: { ...params, _meta: META },
});

function headers(method: string, params: Result): Record<string, string> {
  const field = mcpNameField(method);
  const name = field === undefined ? undefined : params[field];
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
  };
}

/** Sends one request to `url`; resolves with its result (throws on a JSON-RPC error). */
export async function call(url: string, method: string, params: Result = {}): Promise<Result> {
  const response = await fetch(url, {
    method: 'POST',
    headers: headers(method, params),
    body: JSON.stringify(message(method, params)),
  });
  const body = (await response.json()) as { result?: Result; error?: unknown };
  if (body.result === undefined) throw new Error(`${method} failed: ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Calls a task tool at `url` and returns the new task's id. */
export async function startTask(url: string, name: string, args: Result): Promise<string> {
  const created = await call(url, 'tools/call', { name, arguments: args });
  expect(created.resultType).toBe('task');
  return created.taskId as string;
}

/** Polls `tasks/get` at `url` (or at each URL in turn) until `predicate` holds; 20 s deadline. */
export function waitForTask(url: string, taskId: string, predicate: (task: Result) => boolean): Promise<Result> {
  return vi.waitFor(
    async () => {
      const task = await call(url, 'tasks/get', { taskId });
      if (!predicate(task)) throw new Error(`task ${taskId} is ${JSON.stringify(task).slice(0, 300)}`);
      return task;
    },
    { timeout: 20_000, interval: 20 },
  );
}

/** Answers the task's one pending elicitation at `url` with `content`. */
export async function answer(url: string, task: Result, content: Result): Promise<void> {
  const [key] = Object.keys(task.inputRequests as object);
  await call(url, 'tasks/update', {
    taskId: task.taskId,
    inputResponses: { [key as string]: { action: 'accept', content } },
  });
}

/** An open `subscriptions/listen` stream over HTTP: `seen` grows as notifications arrive. */
export function listen(url: string, taskIds: string[]): { seen: Notification[]; close(): void; done: Promise<void> } {
  const params = { notifications: { taskIds } };
  const aborter = new AbortController();
  const seen: Notification[] = [];
  const done = (async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: headers('subscriptions/listen', params),
      body: JSON.stringify(message('subscriptions/listen', params)),
      signal: aborter.signal,
    });
    if (response.body === null) throw new Error('listen: no body');
    for await (const data of readSseEvents(response.body)) {
      const event = JSON.parse(data) as Partial<Notification>;
      if (typeof event.method === 'string') seen.push(event as Notification);
    }
  })().catch((error: unknown) => {
    if (!aborter.signal.aborted) throw error;
  });
  return { seen, close: () => aborter.abort(), done };
}

/** A WebSocket connection to one instance, sending the same requests. */
export async function connectWs(url: string) {
  const socket = new WebSocket(url, 'mcp');
  await once(socket, 'open');
  const pending = new Map<number, (reply: { result?: Result; error?: unknown }) => void>();
  socket.on('message', (data) => {
    const reply = JSON.parse(String(data)) as { id?: number; result?: Result; error?: unknown };
    if (typeof reply.id === 'number') pending.get(reply.id)?.(reply);
  });
  return {
    async call(method: string, params: Result = {}): Promise<Result> {
      const request = message(method, params);
      const reply = await new Promise<{ result?: Result; error?: unknown }>((resolve) => {
        pending.set(request.id, resolve);
        socket.send(JSON.stringify(request));
      });
      if (reply.result === undefined) throw new Error(`${method} failed: ${JSON.stringify(reply.error)}`);
      return reply.result;
    },
    close: () => socket.terminate(),
  };
}
