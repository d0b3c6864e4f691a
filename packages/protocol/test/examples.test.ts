import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as protocol from '../src/index.js';
import { coreErrors } from './jsonSchema.js';
import { loadCoreExamples, readSpecJson } from './specPaths.js';

/** Spec `$defs` names we deliberately export no `<Name>Schema` for, with the reason. */
const NOT_MODELED: Record<string, string> = {
  Request: 'abstract base (method + params, no jsonrpc); JSONRPCRequestSchema and the per-method schemas cover it',
  Notification: 'abstract base (no jsonrpc); JSONRPCNotificationSchema and the per-method schemas cover it',
  PaginatedRequest: 'abstract base with a free method; each list request uses PaginatedRequestParamsSchema',
  ClientResult: 'clients send no results in 2026-07-28 (input responses travel inside request params)',
  ServerResult:
    'an anyOf that includes the bare Result, so it accepts any result; clients parse per method, by resultType',
};

/**
 * Examples we reject, with the reason and the part of the spec's JSON schema that rejects them too (checked).
 */
const INVALID_EXAMPLES: Record<string, { reason: string; def: string; part: (example: unknown) => unknown }> = {
  'ReadResourceResultResponse/read-resource-result-response.json': {
    reason:
      'a "complete" result without ttlMs/cacheScope: ReadResourceResult requires both (caching.mdx: servers MUST ' +
      'send ttlMs); the JSON schema only lets it through its InputRequiredResult branch, whose resultType is any string',
    def: 'ReadResourceResult',
    part: (example) => (example as { result: unknown }).result,
  },
};

/**
 * Example folders whose type we model under another export (the spec names an error *object*, we export the
 * generic {@link protocol.ErrorSchema}; the code is checked separately below).
 */
const ERROR_OBJECT_CODES: Record<string, number> = {
  ParseError: protocol.ErrorCode.ParseError,
  InvalidRequestError: protocol.ErrorCode.InvalidRequest,
  MethodNotFoundError: protocol.ErrorCode.MethodNotFound,
  InvalidParamsError: protocol.ErrorCode.InvalidParams,
  InternalError: protocol.ErrorCode.InternalError,
};

function schemaFor(type: string): z.ZodType | undefined {
  const candidate = (protocol as Record<string, unknown>)[`${type}Schema`];
  return candidate !== undefined && typeof (candidate as z.ZodType).safeParse === 'function'
    ? (candidate as z.ZodType)
    : undefined;
}

const examples = loadCoreExamples();
const coreDefs = Object.keys((readSpecJson('2026-07-28/schema.json') as { $defs: object }).$defs);
const taskDefs = Object.keys((readSpecJson('tasks-extension/schema.json') as { $defs: object }).$defs);

describe('coverage of the spec $defs', () => {
  it('exports a schema for every core and Tasks extension type, or lists why not', () => {
    const missing = [...coreDefs, ...taskDefs].filter(
      (d) => !schemaFor(d) && !(d in NOT_MODELED) && !(d in ERROR_OBJECT_CODES),
    );
    expect(missing).toEqual([]);
  });

  it('lists no type as unmodelled that the spec does not define or that we do export', () => {
    for (const name of [...Object.keys(NOT_MODELED), ...Object.keys(ERROR_OBJECT_CODES)]) {
      expect(coreDefs).toContain(name);
      expect(schemaFor(name)).toBeUndefined();
    }
  });
});

describe('core spec examples (2026-07-28/schema/examples)', () => {
  it('finds all 129 examples', () => {
    expect(examples).toHaveLength(129);
  });

  it('models every example type, or lists why not', () => {
    const types = [...new Set(examples.map(([type]) => type))];
    const missing = types.filter((t) => !schemaFor(t) && !(t in NOT_MODELED) && !(t in ERROR_OBJECT_CODES));
    expect(missing).toEqual([]);
  });

  it.each(examples)('%s/%s parses with our schema', (type, file, example) => {
    const invalid = INVALID_EXAMPLES[`${type}/${file}`];
    if (invalid !== undefined) {
      expect(coreErrors(invalid.def, invalid.part(example)), invalid.reason).not.toEqual([]);
      expect(schemaFor(type)?.safeParse(example).success, invalid.reason).toBe(false);
      return;
    }
    // The spec's JSON schema accepts every other example; that keeps this list honest.
    expect(coreErrors(type, example)).toEqual([]);
    if (type in NOT_MODELED) return;
    const code = ERROR_OBJECT_CODES[type];
    if (code !== undefined) {
      const parsed = protocol.ErrorSchema.parse(example);
      expect(parsed.code).toBe(code);
      return;
    }
    const schema = schemaFor(type);
    expect(schema, `no ${type}Schema exported`).toBeDefined();
    const result = schema?.safeParse(example);
    expect(result?.error, JSON.stringify(result?.error?.issues)).toBeUndefined();
    // Loose objects keep unknown keys: parsing must not drop or rewrite anything the example carried.
    expect(result?.data).toEqual(example);
  });
});
