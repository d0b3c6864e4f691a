import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  RequestIdSchema,
} from '../src/index.js';

describe('JSON-RPC envelope', () => {
  it('accepts string and integer ids, and treats id 0 as present', () => {
    expect(RequestIdSchema.parse('a')).toBe('a');
    expect(JSONRPCRequestSchema.parse({ jsonrpc: '2.0', id: 0, method: 'm' }).id).toBe(0);
    expect(RequestIdSchema.safeParse(null).success).toBe(false);
    expect(RequestIdSchema.safeParse(1.5).success).toBe(false);
  });

  it('tells a request from a notification by id', () => {
    expect(JSONRPCNotificationSchema.safeParse({ jsonrpc: '2.0', id: 1, method: 'm' }).success).toBe(false);
    expect(JSONRPCRequestSchema.safeParse({ jsonrpc: '2.0', method: 'm' }).success).toBe(false);
  });

  it('rejects a response carrying both result and error', () => {
    const both = { jsonrpc: '2.0', id: 1, result: { resultType: 'complete' }, error: { code: 1, message: 'x' } };
    expect(JSONRPCResultResponseSchema.safeParse(both).success).toBe(false);
    expect(JSONRPCErrorResponseSchema.safeParse(both).success).toBe(false);
    expect(JSONRPCMessageSchema.safeParse(both).success).toBe(false);
  });

  it('accepts a null id on an error response from a plain JSON-RPC peer', () => {
    expect(
      JSONRPCErrorResponseSchema.safeParse({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } }).success,
    ).toBe(true);
  });

  it('passes unknown keys through untouched', () => {
    const msg = { jsonrpc: '2.0', id: 1, method: 'm', params: { a: 1 }, extra: { b: [1] } };
    expect(JSONRPCMessageSchema.parse(msg)).toEqual(msg);
  });

  it('rejects other JSON-RPC versions and non-objects', () => {
    expect(JSONRPCMessageSchema.safeParse({ jsonrpc: '1.0', id: 1, method: 'm' }).success).toBe(false);
    expect(JSONRPCMessageSchema.safeParse([]).success).toBe(false);
    expect(JSONRPCMessageSchema.safeParse('x').success).toBe(false);
  });
});

describe('runtime neutrality', () => {
  it('has no node: imports in src', () => {
    const dir = new URL('../src/', import.meta.url);
    for (const file of readdirSync(dir)) {
      expect(readFileSync(new URL(file, dir), 'utf8'), file).not.toMatch(/from '(node:|fs|path|url)/);
    }
  });
});
