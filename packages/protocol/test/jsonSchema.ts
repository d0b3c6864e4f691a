import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { readSpecJson } from './specPaths.js';

const CORE_ID = 'mcp-core-2026-07-28';
const tasksSchema = readSpecJson('tasks-extension/schema.json') as { $id: string };

// Formats (uri, byte) are annotations here: the spec's schema is validated structurally, like the conformance suite.
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema(readSpecJson('2026-07-28/schema.json') as object, CORE_ID);
ajv.addSchema(tasksSchema);
const LEGACY_ID = 'mcp-core-2025-11-25';
ajv.addSchema(readSpecJson('2025-11-25/schema.json') as object, LEGACY_ID);

const cache = new Map<string, ValidateFunction>();

function validator(ref: string): ValidateFunction {
  let fn = cache.get(ref);
  if (!fn) {
    fn = ajv.getSchema(ref);
    if (!fn) throw new Error(`no JSON schema at ${ref}`);
    cache.set(ref, fn);
  }
  return fn;
}

/** Validates `value` against a `$defs` entry of the core 2026-07-28 schema; returns the errors (empty when valid). */
export function coreErrors(def: string, value: unknown): string[] {
  const fn = validator(`${CORE_ID}#/$defs/${def}`);
  return fn(value) ? [] : (fn.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** Validates `value` against a `$defs` entry of the Tasks extension schema; returns the errors (empty when valid). */
export function tasksErrors(def: string, value: unknown): string[] {
  const fn = validator(`${tasksSchema.$id}#/$defs/${def}`);
  return fn(value) ? [] : (fn.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** Validates `value` against a `$defs` entry of the 2025-11-25 core schema; returns the errors (empty when valid). */
export function legacyErrors(def: string, value: unknown): string[] {
  const fn = validator(`${LEGACY_ID}#/$defs/${def}`);
  return fn(value) ? [] : (fn.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}
