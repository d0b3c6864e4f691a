/**
 * A JSON Schema object (an elicitation's `requestedSchema`, a tool's `inputSchema`) as form fields, and the checks
 * that turn a person's answer into the value the schema asks for. One set of rules for every host that renders
 * such a form (a web page, a terminal, an answers file); no DOM and no Node built-ins, so it runs anywhere.
 */

/** A JSON value. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The primitive JSON Schema types a field edits directly. */
export type FieldType = 'string' | 'number' | 'integer' | 'boolean';

/**
 * How a field is edited: `string`, `number`, `integer`, `boolean` (one value of that type); `enum` (one of
 * `choices`); `multi` (an array of picks from `choices`); `list` (an array of `itemType` values typed freely);
 * `json` (anything else, e.g. a nested object, edited as JSON text).
 */
export type FieldKind = FieldType | 'enum' | 'multi' | 'list' | 'json';

/** One allowed value of an `enum` or `multi` field, with the title to show for it. */
export interface FieldChoice {
  /** The value to put in the answer. */
  readonly value: string | number;
  /** The label to show for it (its `title` or `enumNames` entry in the schema, else the value itself). */
  readonly title: string;
}

/** One property of the schema, as a form asks for it. */
export interface FormField {
  /** The property's name, the key in the answer's `content`. */
  readonly name: string;
  /** The property's `title`, else its name. */
  readonly label: string;
  /** The property's `description`, if any. */
  readonly description: string | undefined;
  /** How to ask for it; see {@link FieldKind}. */
  readonly kind: FieldKind;
  /** The type of a `list`'s items; undefined for other kinds. */
  readonly itemType: FieldType | undefined;
  /** The allowed values of an `enum` or `multi` field, in schema order; empty for other kinds. */
  readonly choices: readonly FieldChoice[];
  /** Whether the schema lists the property in `required`. */
  readonly required: boolean;
  /** The property's `default`, as the schema gives it. */
  readonly default: JsonValue | undefined;
  /** The property's own schema (what the checks read: lengths, ranges, `pattern`, `format`, item counts). */
  readonly schema: Readonly<Record<string, unknown>>;
}

/** An answer that fits its field (`value`, typed as the schema asks), or why it does not (`reason`, one phrase). */
export type FieldCheck =
  | {
      /** The answer fits. */
      readonly ok: true;
      /** The answer converted to the type the schema asks for. */
      readonly value: JsonValue;
    }
  | {
      /** The answer does not fit. */
      readonly ok: false;
      /** Why, in one phrase to show next to the field. */
      readonly reason: string;
    };

type Schema = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isFieldType = (value: unknown): value is FieldType =>
  value === 'string' || value === 'number' || value === 'integer' || value === 'boolean';

/**
 * The fields of an object schema, one per property in property order, with `required` from the schema's list.
 * Anything that is not an object schema with `properties` has no fields.
 */
export function formFields(schema: unknown): FormField[] {
  if (!isRecord(schema) || !isRecord(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(schema.properties).map(([name, property]) => {
    const s = isRecord(property) ? property : {};
    const { kind, itemType, choices } = classify(s);
    return {
      name,
      label: typeof s.title === 'string' ? s.title : name,
      description: typeof s.description === 'string' ? s.description : undefined,
      kind,
      itemType,
      choices,
      required: required.has(name),
      default: s.default as JsonValue | undefined,
      schema: s,
    };
  });
}

function classify(s: Schema): Pick<FormField, 'kind' | 'itemType' | 'choices'> {
  const choices = choicesOf(s);
  if (s.type === 'array') {
    const items = isRecord(s.items) ? s.items : {};
    const itemChoices = choicesOf(items);
    if (itemChoices !== undefined) return { kind: 'multi', itemType: undefined, choices: itemChoices };
    if (isFieldType(items.type)) return { kind: 'list', itemType: items.type, choices: [] };
    return { kind: 'json', itemType: undefined, choices: [] };
  }
  if (choices !== undefined) return { kind: 'enum', itemType: undefined, choices };
  return { kind: isFieldType(s.type) ? s.type : 'json', itemType: undefined, choices: [] };
}

/** `enum` (titled by the legacy `enumNames`), or `oneOf`/`anyOf` whose every entry is a titled `const`. */
function choicesOf(s: Schema): FieldChoice[] | undefined {
  const plain = (value: unknown): value is string | number => typeof value === 'string' || typeof value === 'number';
  if (Array.isArray(s.enum)) {
    const names = Array.isArray(s.enumNames) ? s.enumNames : [];
    return s.enum.filter(plain).map((value, i) => ({
      value,
      title: typeof names[i] === 'string' ? names[i] : String(value),
    }));
  }
  const titled = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (titled === undefined || titled.length === 0 || !titled.every((c) => isRecord(c) && plain(c.const)))
    return undefined;
  return (titled as Schema[]).map((c) => ({
    value: c.const as string | number,
    title: typeof c.title === 'string' ? c.title : String(c.const),
  }));
}

const fail = (reason: string): FieldCheck => ({ ok: false, reason });

/**
 * Checks a JSON value (e.g. from an answers file, or already typed by a form) against its field: the type, then
 * `minimum`/`maximum`, `minLength`/`maxLength`, `pattern`, `format` (email, uri, date, date-time), the choices,
 * and `minItems`/`maxItems`. A `json` field takes any JSON value.
 */
export function checkValue(field: FormField, value: unknown): FieldCheck {
  switch (field.kind) {
    case 'enum':
      return field.choices.some((c) => c.value === value)
        ? { ok: true, value: value as string | number }
        : fail(`expected one of ${field.choices.map((c) => c.value).join(', ')}`);
    case 'multi':
    case 'list': {
      if (!Array.isArray(value)) return fail('expected a list');
      for (const item of value) {
        const checked = checkItem(field, item);
        if (!checked.ok) return fail(`${JSON.stringify(item)}: ${checked.reason}`);
      }
      const s = field.schema;
      if (typeof s.minItems === 'number' && value.length < s.minItems) return fail(`pick at least ${s.minItems}`);
      if (typeof s.maxItems === 'number' && value.length > s.maxItems) return fail(`pick at most ${s.maxItems}`);
      return { ok: true, value: value as JsonValue[] };
    }
    case 'json':
      return value === undefined ? fail('expected a JSON value') : { ok: true, value: value as JsonValue };
    default:
      return checkPrimitive(field.kind, field.schema, value);
  }
}

function checkItem(field: FormField, item: unknown): FieldCheck {
  if (field.kind === 'multi')
    return field.choices.some((c) => c.value === item)
      ? { ok: true, value: item as string | number }
      : fail(`expected one of ${field.choices.map((c) => c.value).join(', ')}`);
  const items = isRecord(field.schema.items) ? field.schema.items : {};
  return checkPrimitive(field.itemType ?? 'string', items, item);
}

function checkPrimitive(type: FieldType, s: Schema, value: unknown): FieldCheck {
  if (type === 'boolean') return typeof value === 'boolean' ? { ok: true, value } : fail('expected true or false');
  if (type === 'string') return checkString(s, value);
  if (typeof value !== 'number' || !Number.isFinite(value)) return fail('expected a number');
  if (type === 'integer' && !Number.isInteger(value)) return fail('expected a whole number');
  if (typeof s.minimum === 'number' && value < s.minimum) return fail(`must be ≥ ${s.minimum}`);
  if (typeof s.maximum === 'number' && value > s.maximum) return fail(`must be ≤ ${s.maximum}`);
  return { ok: true, value };
}

function checkString(s: Schema, value: unknown): FieldCheck {
  if (typeof value !== 'string') return fail('expected text');
  if (typeof s.minLength === 'number' && value.length < s.minLength) return fail(`at least ${s.minLength} characters`);
  if (typeof s.maxLength === 'number' && value.length > s.maxLength) return fail(`at most ${s.maxLength} characters`);
  if (typeof s.pattern === 'string' && safeRegExp(s.pattern)?.test(value) === false)
    return fail(`expected text matching ${s.pattern}`);
  const format = typeof s.format === 'string' ? FORMATS[s.format] : undefined;
  if (format !== undefined && !format.valid(value)) return fail(`expected ${format.hint}`);
  return { ok: true, value };
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    // A pattern this engine cannot read is not the person's fault: it checks nothing.
    return undefined;
  }
}

/**
 * Reads what a person typed for the field, then checks it like {@link checkValue}: numbers are read as numbers,
 * `true`/`false` (or yes/no) as booleans, a choice by its value, a `list` or `multi` one value per line (blank lines
 * ignored), a `json` field as JSON. Deciding what an empty answer means (the default, or "required") is the caller's.
 */
export function parseText(field: FormField, text: string): FieldCheck {
  switch (field.kind) {
    case 'list':
    case 'multi': {
      const lines = text
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '');
      const items: unknown[] = [];
      for (const line of lines) {
        const item = readTyped(field.kind === 'list' ? (field.itemType ?? 'string') : field, line);
        // Name the line as typed: a number that did not parse is NaN, which says nothing.
        const checked = checkItem(field, item);
        if (!checked.ok) return fail(`"${line}": ${checked.reason}`);
        items.push(item);
      }
      return checkValue(field, items);
    }
    case 'json':
      try {
        return checkValue(field, JSON.parse(text));
      } catch {
        return fail('expected JSON');
      }
    case 'enum':
      return checkValue(field, readTyped(field, text));
    default:
      return checkValue(field, readTyped(field.kind, text));
  }
}

/** Typed text as the value it stands for: a number, a boolean, a choice's value; else the text unchanged. */
function readTyped(as: FieldType | FormField, text: string): unknown {
  if (typeof as !== 'string') return as.choices.find((c) => String(c.value) === text)?.value ?? text;
  if (as === 'boolean') return /^(true|yes)$/i.test(text) ? true : /^(false|no)$/i.test(text) ? false : text;
  if (as !== 'number' && as !== 'integer') return text;
  const trimmed = text.trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

/** The string formats a schema may name, each with what a person should type and how it is checked. */
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

/**
 * What to type into a text field, for a placeholder: the format of a string (`a date (YYYY-MM-DD)`), or what
 * number and its range (`a whole number from 1 to 5`). Undefined when there is nothing to say.
 */
export function typingHint(field: FormField): string | undefined {
  const s = field.schema;
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
