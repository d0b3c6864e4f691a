import {
  InputHandlerError,
  TaskCancelledError,
  TaskFailedError,
  TaskNotFoundError,
  UnsupportedInEraError,
} from '@mcp-tasks/client';
import { ProtocolError, TransportError } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { ConnectionError, describeFailure, TaskLostError, UsageError } from '../src/cliErrors.js';

describe('describeFailure: the exit code contract', () => {
  const internal = new ProtocolError(-32603, 'boom');

  it.each([
    ['usage', new UsageError('bad flag'), 2],
    ['2026-only operation on a 2025 server', new UnsupportedInEraError('resuming a task', '2025-11-25'), 2],
    ['connection', new ConnectionError('no server'), 4],
    ['transport', new TransportError('send_failed', 'POST failed'), 4],
    ['401 body', new ProtocolError(-32600, 'Unauthorized'), 4],
    ['failed task', new TaskFailedError('t', internal), 5],
    ['JSON-RPC error of the call', new ProtocolError(-32602, 'unknown tool'), 5],
    ['cancelled task', new TaskCancelledError('t'), 3],
    ['unknown or expired task', new TaskNotFoundError('t', new ProtocolError(-32602, 'not found')), 3],
    ['task the server lost while away', new TaskLostError('t'), 3],
    ['unanswerable input', new InputHandlerError('k', 'roots/list', 'no handler'), 3],
    [
      'a form with no terminal to ask on',
      new InputHandlerError('k', 'x', 'failed', { cause: new UsageError('no tty') }),
      2,
    ],
    ['anything else', new Error('surprise'), 5],
  ])('%s → exit %i', (_what, error, code) => {
    const failure = describeFailure(error);
    expect(failure.code).toBe(code);
    expect(failure.message).not.toContain('\n');
  });

  it('names an unknown task once', () => {
    const cause = new ProtocolError(-32602, 'Invalid params: task not found or expired: abc');
    expect(describeFailure(new TaskNotFoundError('abc', cause)).message).toBe(
      'The server does not know task abc (not found or expired)',
    );
  });

  it('points at --token when HTTP credentials are rejected', () => {
    expect(describeFailure(new TransportError('http_status', 'x', { status: 401 })).message).toMatch(/--token/);
  });

  it('says an HTTP status once, with what to do about it', () => {
    const notFound = new TransportError('http_status', 'HTTP 404 without a JSON-RPC error body', { status: 404 });
    expect(describeFailure(notFound).message).toBe(
      'The server answered HTTP 404 without a JSON-RPC error body; check the path of --url (usually …/mcp)',
    );
    const upgrade = new TransportError('http_status', 'HTTP 426 without a JSON-RPC error body', { status: 426 });
    expect(describeFailure(upgrade).message).toMatch(/use a ws:\/\/ URL/);
    const refused = new TransportError('http_status', 'The server refused the WebSocket upgrade with HTTP 404', {
      status: 404,
    });
    expect(describeFailure(refused).message).toMatch(/upgrade with HTTP 404; is this a WebSocket endpoint\?/);
  });
});
