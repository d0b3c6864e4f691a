/**
 * Elicitation form fields (`requestedSchema.properties`) reduced to what a text UI needs, and the checks that turn
 * typed text or answers-file values into the values the form asked for.
 */
import type { PrimitiveSchemaDefinition } from '@mcp-tasks/protocol';

/** One form field as the CLI asks for it. */
export interface FormField {
  readonly name: string;
  readonly label: string;
  readonly description: string | undefined;
  readonly kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi';
  /** Allowed values (`enum`, `multi`) with display titles. */
  readonly choices: readonly { readonly value: string; readonly title: string }[];
  readonly required: boolean;
  readonly default: FieldValue | undefined;
  readonly schema: PrimitiveSchemaDefinition;
}

/** A value an elicitation answer may carry. */
export type FieldValue = string | number | boolean | string[];

/** The form's fields in schema order. */
export function formFields(
  properties: Readonly<Record<string, PrimitiveSchemaDefinition>>,
  required: readonly string[] = [],
): FormField[] {
  return Object.entries(properties).map(([name, schema]) => {
    const s = schema as Record<string, unknown>;
    const choices = choicesOf(s);
    const kind: FormField['kind'] =
      s.type === 'array'
        ? 'multi'
        : choices.length > 0
          ? 'enum'
          : (s.type as 'string' | 'number' | 'integer' | 'boolean');
    return {
      name,
      label: typeof s.title === 'string' ? s.title : name,
      description: typeof s.description === 'string' ? s.description : undefined,
      kind,
      choices,
      required: required.includes(name),
      default: isFieldValue(s.default) ? s.default : undefined,
      schema,
    };
  });
}

function choicesOf(s: Record<string, unknown>): { value: string; title: string }[] {
  const source =
    s.type === 'array' && typeof s.items === 'object' && s.items !== null ? (s.items as Record<string, unknown>) : s;
  const titled = Array.isArray(source.oneOf) ? source.oneOf : Array.isArray(source.anyOf) ? source.anyOf : undefined;
  if (titled !== undefined)
    return titled.map((o: { const: string; title: string }) => ({ value: String(o.const), title: String(o.title) }));
  if (!Array.isArray(source.enum)) return [];
  const names = Array.isArray(s.enumNames) ? s.enumNames : [];
  return source.enum.map((value: unknown, i: number) => ({
    value: String(value),
    title: typeof names[i] === 'string' ? names[i] : String(value),
  }));
}

function isFieldValue(value: unknown): value is FieldValue {
  return (
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    (Array.isArray(value) && value.every((v) => typeof v === 'string'))
  );
}

/** Checks a JSON value (from an answers file) against the field. Returns the value or a reason it is wrong. */
export function checkValue(
  field: FormField,
  value: unknown,
): { ok: true; value: FieldValue } | { ok: false; reason: string } {
  const s = field.schema as Record<string, unknown>;
  switch (field.kind) {
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : { ok: false, reason: 'expected true or false' };
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, reason: 'expected a number' };
      if (field.kind === 'integer' && !Number.isInteger(value)) return { ok: false, reason: 'expected an integer' };
      if (typeof s.minimum === 'number' && value < s.minimum) return { ok: false, reason: `must be ≥ ${s.minimum}` };
      if (typeof s.maximum === 'number' && value > s.maximum) return { ok: false, reason: `must be ≤ ${s.maximum}` };
      return { ok: true, value };
    }
    case 'enum':
      return typeof value === 'string' && field.choices.some((c) => c.value === value)
        ? { ok: true, value }
        : { ok: false, reason: `expected one of ${field.choices.map((c) => c.value).join(', ')}` };
    case 'multi': {
      if (
        !Array.isArray(value) ||
        !value.every((v) => typeof v === 'string' && field.choices.some((c) => c.value === v))
      )
        return { ok: false, reason: `expected a list drawn from ${field.choices.map((c) => c.value).join(', ')}` };
      if (typeof s.minItems === 'number' && value.length < s.minItems)
        return { ok: false, reason: `pick at least ${s.minItems}` };
      if (typeof s.maxItems === 'number' && value.length > s.maxItems)
        return { ok: false, reason: `pick at most ${s.maxItems}` };
      return { ok: true, value: value as string[] };
    }
    case 'string': {
      if (typeof value !== 'string') return { ok: false, reason: 'expected text' };
      if (typeof s.minLength === 'number' && value.length < s.minLength)
        return { ok: false, reason: `at least ${s.minLength} characters` };
      if (typeof s.maxLength === 'number' && value.length > s.maxLength)
        return { ok: false, reason: `at most ${s.maxLength} characters` };
      return { ok: true, value };
    }
  }
}

/** Parses what a person typed for the field (numbers, yes/no, a choice by number or value, comma lists). */
export function parseTyped(
  field: FormField,
  text: string,
): { ok: true; value: FieldValue } | { ok: false; reason: string } {
  const trimmed = text.trim();
  switch (field.kind) {
    case 'boolean': {
      if (/^(y|yes|true)$/i.test(trimmed)) return { ok: true, value: true };
      if (/^(n|no|false)$/i.test(trimmed)) return { ok: true, value: false };
      return { ok: false, reason: 'answer y or n' };
    }
    case 'number':
    case 'integer':
      return checkValue(field, trimmed === '' ? Number.NaN : Number(trimmed));
    case 'enum':
      return checkValue(field, pickChoice(field, trimmed));
    case 'multi':
      return checkValue(
        field,
        trimmed
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part !== '')
          .map((part) => pickChoice(field, part)),
      );
    case 'string':
      return checkValue(field, text);
  }
}

function pickChoice(field: FormField, text: string): string {
  const index = /^\d+$/.test(text) ? Number(text) - 1 : -1;
  return field.choices[index]?.value ?? text;
}
