import { describe, expect, it } from 'vitest';
import { coreValid } from './differentialCases.js';
import { invalid, taskValid } from './differentialTaskCases.js';
import { coreErrors, tasksErrors } from './jsonSchema.js';

const valid = [...coreValid, ...taskValid];

function jsonSchemaErrors(which: 'core' | 'tasks', def: string, message: unknown): string[] {
  return which === 'core' ? coreErrors(def, message) : tasksErrors(def, message);
}

describe('differential: our messages against the spec JSON Schemas (ajv, draft 2020-12)', () => {
  it.each(valid)('%s: accepted by ours and by the spec schema', (_name, schema, which, def, message) => {
    const parsed = schema.safeParse(message);
    expect(parsed.error?.issues).toBeUndefined();
    expect(parsed.data).toEqual(message);
    expect(jsonSchemaErrors(which, def, message)).toEqual([]);
  });

  it.each(invalid)('%s: rejected by ours and by the spec schema', (_name, schema, which, def, message) => {
    expect(schema.safeParse(message).success).toBe(false);
    expect(jsonSchemaErrors(which, def, message)).not.toEqual([]);
  });
});
