/** Ingress validation of a result against its method's schema. */
import type { z } from 'zod';
import { InvalidResponseError } from './errors.js';

/** Returns `value` parsed by `schema`; a result that fails its method's schema is an `InvalidResponseError`. */
export function parseResult<T>(method: string, schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new InvalidResponseError(method, 'result does not match its schema', { cause: parsed.error });
  return parsed.data;
}
