import { z } from 'zod';

/**
 * Any JSON value. The spec's TypeScript source allows `null` and non-integer numbers here; its generated JSON
 * Schema narrows them, so we follow the TypeScript (what peers actually send).
 */
export const JSONValueSchema = z.json();
/** A JSON value. */
export type JSONValue = z.infer<typeof JSONValueSchema>;

/** A JSON object: string keys, JSON values. */
export const JSONObjectSchema = z.record(z.string(), JSONValueSchema);
/** A JSON object. */
export type JSONObject = z.infer<typeof JSONObjectSchema>;

/**
 * An object read from the wire (or about to go on it) whose values are not narrowed yet: what `isRecord`
 * proves about `params`, a stored task result or request metadata. {@link JSONObject} is the spec's stricter type,
 * whose values are JSON values.
 */
export type JsonObject = { readonly [key: string]: unknown };

/** A JSON array. */
export const JSONArraySchema = z.array(JSONValueSchema);
/** A JSON array. */
export type JSONArray = z.infer<typeof JSONArraySchema>;

/** The free-form `_meta` object carried by content, tools, roots and other entities. Any keys pass through. */
export const MetaObjectSchema = z.record(z.string(), z.unknown());
/** A free-form `_meta` object. */
export type MetaObject = z.infer<typeof MetaObjectSchema>;
