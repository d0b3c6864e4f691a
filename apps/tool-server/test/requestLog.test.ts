import { Writable } from 'node:stream';
import type { MessageHandler, TransportResponse } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { logRequests } from '../src/requestLog.js';

/** The debug lines `logRequests` writes while `handler` answers `message`. */
async function logged(message: unknown, response: TransportResponse | undefined): Promise<Record<string, unknown>[]> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  const handler: MessageHandler = async () => response;
  await logRequests(handler, createLogger('debug', sink))(message, {
    signal: new AbortController().signal,
    notify: () => undefined,
  });
  return lines;
}

const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'deploy_service', arguments: {} } };

describe('logRequests', () => {
  it('logs the task a 2026-07-28 CreateTaskResult created (flat, resultType "task")', async () => {
    const [line] = await logged(call, {
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'task', taskId: 'task-2026', status: 'working', ttlMs: null },
    });
    expect(line).toMatchObject({ msg: 'request', method: 'tools/call', taskId: 'task-2026', outcome: 'ok' });
  });

  it('logs the task a 2025-11-25 CreateTaskResult created (nested under task)', async () => {
    const [line] = await logged(call, { jsonrpc: '2.0', id: 1, result: { task: { taskId: 'task-2025' } } });
    expect(line).toMatchObject({ taskId: 'task-2025', outcome: 'ok' });
  });

  it('logs the task a request names, and null for a result that creates none', async () => {
    const get = { jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId: 'task-named' } };
    const [named] = await logged(get, { jsonrpc: '2.0', id: 2, result: { resultType: 'complete' } });
    expect(named).toMatchObject({ method: 'tasks/get', taskId: 'task-named' });
    const [none] = await logged(call, { jsonrpc: '2.0', id: 1, result: { resultType: 'complete', content: [] } });
    expect(none).toMatchObject({ taskId: null, outcome: 'ok' });
  });

  it('logs an error response with its code', async () => {
    const [line] = await logged(call, { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'bad' } });
    expect(line).toMatchObject({ taskId: null, outcome: 'error -32602' });
  });
});
