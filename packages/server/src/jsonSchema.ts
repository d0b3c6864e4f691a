import { z } from 'zod';
import type { JsonObject } from './jsonRpc.js';

/**
 * A JSON Schema served verbatim, for schemas zod cannot express (`$defs` with `$anchor`, `if/then/else`, …).
 * Arguments for a tool with a raw schema are only checked to be an object; the handler validates the rest.
 */
export class RawJsonSchema {
  /** The schema as given, deep-copied and frozen. */
  readonly schema: JsonObject;
  /** Copies and freezes `schema`; later changes to the object passed in have no effect. */
  constructor(schema: JsonObject) {
    this.schema = Object.freeze(structuredClone(schema));
  }
}

/** Wraps a JSON Schema object so the runtime serves it unchanged. */
export function jsonSchema(schema: JsonObject): RawJsonSchema {
  return new RawJsonSchema(schema);
}

/** A schema given at registration: a zod schema (converted with `z.toJSONSchema`) or a {@link RawJsonSchema}. */
export type SchemaInput = z.ZodType | RawJsonSchema;

/** The JSON Schema served on the wire for `schema`. */
export function toWireSchema(schema: SchemaInput): JsonObject {
  if (schema instanceof RawJsonSchema) return schema.schema;
  return Object.freeze(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonObject);
}
