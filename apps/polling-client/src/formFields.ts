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
      const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
      if (format !== undefined && !format.valid(value)) return { ok: false, reason: `expected ${format.hint}` };
      return { ok: true, value };
    }
  }
}

/**
 * Checks what a person typed into a text prompt: numbers and integers are read as numbers, everything else is
 * checked as text. (Yes/no and choices are picked from lists, never typed.)
 */
export function parseTyped(
  field: FormField,
  text: string,
): { ok: true; value: FieldValue } | { ok: false; reason: string } {
  if (field.kind !== 'number' && field.kind !== 'integer') return checkValue(field, text);
  const trimmed = text.trim();
  return checkValue(field, trimmed === '' ? Number.NaN : Number(trimmed));
}

/** The string formats an elicitation schema may name, each with what a person should type and how it is checked. */
const FORMATS: Readonly<Record<string, { readonly hint: string; readonly valid: (text: string) => boolean }>> = {
  email: { hint: 'an email address (name@example.com)', valid: (t) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t) },
  uri: { hint: 'a URI (https://example.com/…)', valid: (t) => /^[a-z][a-z0-9+.-]*:/i.test(t) && URL.canParse(t) },
  date: { hint: 'a date (YYYY-MM-DD)', valid: (t) => /^\d{4}-\d{2}-\d{2}$/.test(t) && isRealDay(t) },
  'date-time': {
    hint: 'a date and time (YYYY-MM-DDThh:mm:ssZ)',
    valid: (t) =>
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.test(t) &&
      isRealDay(t.slice(0, 10)) &&
      Number.isFinite(Date.parse(t)),
  },
};

/** `Date` rolls 2025-02-30 over to March; a real day reads back as itself. */
function isRealDay(day: string): boolean {
  const time = Date.parse(`${day}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().startsWith(day);
}

/** What to type for a text field (its format, or its range), shown while the field is empty. */
export function typingHint(field: FormField): string | undefined {
  const s = field.schema as Record<string, unknown>;
  if (field.kind === 'string') return typeof s.format === 'string' ? FORMATS[s.format]?.hint : undefined;
  if (field.kind !== 'number' && field.kind !== 'integer') return undefined;
  const what = field.kind === 'integer' ? 'a whole number' : 'a number';
  const min = typeof s.minimum === 'number' ? s.minimum : undefined;
  const max = typeof s.maximum === 'number' ? s.maximum : undefined;
  if (min !== undefined && max !== undefined) return `${what} from ${min} to ${max}`;
  if (min !== undefined) return `${what} ≥ ${min}`;
  if (max !== undefined) return `${what} ≤ ${max}`;
  return what;
}
