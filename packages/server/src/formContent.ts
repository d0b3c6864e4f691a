import { isRecord } from '@mcp-tasks/protocol';

/**
 * Why accepted form content does not match the `requestedSchema` it answers, or undefined when it does. The
 * elicitation page says servers SHOULD validate what they receive; a form schema is flat (strings, numbers,
 * integers, booleans, single and multiple choices), so the check is done here by hand rather than by a JSON Schema
 * engine. A required property must be present; a property the schema names must have its type, range, length and
 * choices; properties the schema does not name are left alone (the tool may ignore them).
 */
export function formContentProblem(requestedSchema: unknown, content: unknown): string | undefined {
  if (!isRecord(requestedSchema)) return undefined;
  const values = isRecord(content) ? content : {};
  const properties = isRecord(requestedSchema.properties) ? requestedSchema.properties : {};
  const required = Array.isArray(requestedSchema.required) ? requestedSchema.required : [];
  for (const name of required) {
    if (typeof name === 'string' && !Object.hasOwn(values, name)) return `content.${name} is required`;
  }
  for (const [name, value] of Object.entries(values)) {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const problem = isRecord(property) ? valueProblem(property, value) : undefined;
    if (problem !== undefined) return `content.${name} ${problem}`;
  }
  return undefined;
}

/** Why `value` does not match one primitive property schema, or undefined. */
function valueProblem(property: Readonly<Record<string, unknown>>, value: unknown): string | undefined {
  switch (property.type) {
    case 'string':
      return typeof value === 'string' ? stringProblem(property, value) : 'must be a string';
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (property.type === 'integer' && !Number.isInteger(value)) return 'must be an integer';
      return rangeProblem(value, property.minimum, property.maximum, 'must be');
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'array':
      return Array.isArray(value) ? arrayProblem(property, value) : 'must be an array';
    default:
      return undefined;
  }
}

function stringProblem(property: Readonly<Record<string, unknown>>, value: string): string | undefined {
  const choices = choicesOf(property);
  if (choices !== undefined) return choices.includes(value) ? undefined : 'is not one of the choices';
  return rangeProblem(value.length, property.minLength, property.maxLength, 'length must be');
}

function arrayProblem(property: Readonly<Record<string, unknown>>, value: readonly unknown[]): string | undefined {
  const choices = isRecord(property.items) ? choicesOf(property.items) : undefined;
  for (const item of value) {
    if (typeof item !== 'string') return 'must hold strings';
    if (choices !== undefined && !choices.includes(item)) return 'holds a value that is not one of the choices';
  }
  return rangeProblem(value.length, property.minItems, property.maxItems, 'must hold a number of values');
}

/** The allowed values of a choice: `enum`, or the `const` of each `oneOf`/`anyOf` option; undefined when free. */
function choicesOf(schema: Readonly<Record<string, unknown>>): unknown[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum;
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  return options?.map((option) => (isRecord(option) ? option.const : undefined));
}

function rangeProblem(n: number, min: unknown, max: unknown, what: string): string | undefined {
  if (typeof min === 'number' && n < min) return `${what} at least ${min}`;
  if (typeof max === 'number' && n > max) return `${what} at most ${max}`;
  return undefined;
}
