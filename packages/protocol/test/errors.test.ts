import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  ErrorSchema,
  isProtocolError,
  jsonRpcError,
  ProtocolError,
  SUPPORTED_PROTOCOL_VERSIONS,
  TASKS_EXTENSION_ID,
  TransportError,
} from '../src/index.js';

describe('ErrorCode', () => {
  it('has the JSON-RPC and 2026-07-28 codes, and the task-limit code of this implementation', () => {
    expect(ErrorCode).toEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
      TooManyTasks: -32029,
    });
  });
});

describe('ProtocolError', () => {
  it('serializes to the JSON-RPC error object, without stack or cause', () => {
    const err = new ProtocolError(ErrorCode.InvalidParams, 'bad', { field: 'x' }, { cause: new Error('inner') });
    expect(err.toJSON()).toEqual({ code: -32602, message: 'bad', data: { field: 'x' } });
    expect(JSON.parse(JSON.stringify(err))).toEqual({ code: -32602, message: 'bad', data: { field: 'x' } });
    expect(err.cause).toBeInstanceOf(Error);
    expect(err.name).toBe('ProtocolError');
  });

  it('omits data when there is none', () => {
    expect(new ProtocolError(ErrorCode.InternalError, 'oops').toJSON()).toEqual({ code: -32603, message: 'oops' });
  });

  it('builds -32021 with data.requiredCapabilities (Decision 8)', () => {
    const err = ProtocolError.missingRequiredClientCapability({ extensions: { [TASKS_EXTENSION_ID]: {} } });
    expect(err.code).toBe(-32021);
    expect(err.data.requiredCapabilities.extensions).toEqual({ [TASKS_EXTENSION_ID]: {} });
    expect(ErrorSchema.parse(err.toJSON())).toEqual(err.toJSON());
  });

  it('builds -32022 with data.supported and data.requested', () => {
    const err = ProtocolError.unsupportedProtocolVersion(SUPPORTED_PROTOCOL_VERSIONS, '1999-01-01');
    expect(err.toJSON()).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '1999-01-01' },
    });
  });

  it('builds -32020 from a message', () => {
    expect(ProtocolError.headerMismatch('Mcp-Method differs').toJSON()).toEqual({
      code: -32020,
      message: 'Mcp-Method differs',
    });
  });

  it('round-trips through a wire error object', () => {
    const wire = { code: -32602, message: 'Task not found', data: { taskId: 't' } };
    const err = ProtocolError.fromError(wire);
    expect(isProtocolError(err)).toBe(true);
    expect(err.toJSON()).toEqual(wire);
  });

  it('is told apart from other errors', () => {
    expect(isProtocolError(new Error('x'))).toBe(false);
    expect(isProtocolError(new TransportError('closed', 'x'))).toBe(false);
    expect(isProtocolError({ code: -32602, message: 'x' })).toBe(false);
  });

  it('becomes an error response through jsonRpcError', () => {
    expect(jsonRpcError(7, ProtocolError.headerMismatch('h'))).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32020, message: 'h' },
    });
    expect(jsonRpcError(undefined, { code: -32700, message: 'Parse error' })).toEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error' },
    });
  });

  it('jsonRpcError omits an unreadable id and an undefined data member, so the wire stays minimal', () => {
    const response = jsonRpcError(null, { code: -32600, message: 'Invalid Request', data: undefined });
    expect(response).toStrictEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' } });
    expect(jsonRpcError(1, { code: 1, message: 'm', data: { a: 1 } }).error).toStrictEqual({
      code: 1,
      message: 'm',
      data: { a: 1 },
    });
  });
});
