/**
 * Turns a JSON Schema object (a tool's `inputSchema`, an elicitation's `requestedSchema`) into form field
 * descriptions, and the text a person typed back into typed values with readable validation messages. No DOM here.
 */

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

type Primitive = 'string' | 'number' | 'integer' | 'boolean';

/** How one property is edited. */
export type FieldKind =
  | { readonly type: Primitive; readonly options?: readonly EnumOption[] }
  | { readonly type: 'array'; readonly items: Primitive; readonly options?: readonly EnumOption[] }
  /** Anything else (nested objects, unions): edited as JSON text. */
  | { readonly type: 'json' };

/** One allowed value of an enum, with the label to show. */
export interface EnumOption {
  readonly value: string | number;
  readonly label: string;
}

/** One form field. */
export interface FieldSpec {
  readonly name: string;
  readonly label: string;
  readonly description: string | undefined;
  readonly required: boolean;
  readonly kind: FieldKind;
  readonly defaultValue: Json | undefined;
  readonly schema: Readonly<Record<string, unknown>>;
}

type Schema = Readonly<Record<string, unknown>>;

const isRecord = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const PRIMITIVES: readonly string[] = ['string', 'number', 'integer', 'boolean'];

/** The fields of an object schema, in property order. A schema without properties has none. */
export function describeFields(schema: unknown): FieldSpec[] {
  if (!isRecord(schema) || !isRecord(schema.properties)) return [];
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  return Object.entries(schema.properties).map(([name, property]) => {
    const prop = isRecord(property) ? property : {};
    return {
      name,
      label: typeof prop.title === 'string' ? prop.title : name,
      description: typeof prop.description === 'string' ? prop.description : undefined,
      required: required.has(name),
      kind: fieldKind(prop),
      defaultValue: prop.default as Json | undefined,
      schema: prop,
    };
  });
}

function enumOptions(schema: Schema): EnumOption[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum
      .filter((v): v is string | number => typeof v === 'string' || typeof v === 'number')
      .map((value, i) => ({ value, label: typeof names[i] === 'string' ? names[i] : String(value) }));
  }
  const choices = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (choices?.every((c) => isRecord(c) && (typeof c.const === 'string' || typeof c.const === 'number'))) {
    return choices.map((c) => {
      const choice = c as Schema;
      const value = choice.const as string | number;
      return { value, label: typeof choice.title === 'string' ? choice.title : String(value) };
    });
  }
  return undefined;
}

function primitiveType(schema: Schema): Primitive | undefined {
  if (typeof schema.type === 'string' && PRIMITIVES.includes(schema.type)) return schema.type as Primitive;
  const options = enumOptions(schema);
  if (options !== undefined && options.length > 0)
    return options.every((o) => typeof o.value === 'string') ? 'string' : 'number';
  return undefined;
}

function fieldKind(schema: Schema): FieldKind {
  const type = primitiveType(schema);
  const options = enumOptions(schema);
  if (type !== undefined) return options === undefined ? { type } : { type, options };
  if (schema.type === 'array' && isRecord(schema.items)) {
    const items = primitiveType(schema.items);
    const itemOptions = enumOptions(schema.items);
    if (items !== undefined)
      return itemOptions === undefined ? { type: 'array', items } : { type: 'array', items, options: itemOptions };
  }
  return { type: 'json' };
}

/** What a field's input held: text for most kinds, a flag for a checkbox, the checked values of a multi-select. */
export type RawValue = string | boolean | readonly string[];

/** A parsed field: `value` undefined means "leave the property out". */
export type Parsed =
  | { readonly ok: true; readonly value: Json | undefined }
  | { readonly ok: false; readonly error: string };

/** Parses and validates one field's raw input against its schema. */
export function parseField(field: FieldSpec, raw: RawValue): Parsed {
  const { kind } = field;
  if (kind.type === 'boolean') return { ok: true, value: raw === true };
  if (Array.isArray(raw)) {
    if (raw.length === 0) return field.required ? fail('Choose at least one') : { ok: true, value: undefined };
    return checkArray(
      field.schema,
      raw.map((item) => coerceOption(kind, item)),
    );
  }
  const text = String(raw);
  if (text.trim() === '') return field.required ? fail('Required') : { ok: true, value: undefined };
  switch (kind.type) {
    case 'string':
      return checkString(field.schema, text);
    case 'number':
    case 'integer':
      return parseNumber(field.schema, kind.type, text);
    case 'array': {
      const items: Json[] = [];
      for (const line of text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l !== '')) {
        const item = parseItem(kind.items, line);
        if (!item.ok) return fail(`"${line}": ${item.error}`);
        items.push(item.value as Json);
      }
      return checkArray(field.schema, items);
    }
    case 'json':
      try {
        return { ok: true, value: JSON.parse(text) as Json };
      } catch {
        return fail('Not valid JSON');
      }
  }
}

function coerceOption(kind: FieldKind, item: string): Json {
  const options = 'options' in kind ? kind.options : undefined;
  return options?.find((o) => String(o.value) === item)?.value ?? item;
}

function parseItem(type: Primitive, text: string): Parsed {
  if (type === 'boolean') {
    if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' };
    return fail('must be true or false');
  }
  return type === 'string' ? { ok: true, value: text } : parseNumber({}, type, text);
}

function fail(error: string): Parsed {
  return { ok: false, error };
}

function checkString(schema: Schema, text: string): Parsed {
  if (typeof schema.minLength === 'number' && text.length < schema.minLength)
    return fail(`At least ${schema.minLength} characters`);
  if (typeof schema.maxLength === 'number' && text.length > schema.maxLength)
    return fail(`At most ${schema.maxLength} characters`);
  if (typeof schema.pattern === 'string' && !safeRegExp(schema.pattern)?.test(text))
    return fail(`Must match ${schema.pattern}`);
  const options = enumOptions(schema);
  if (options !== undefined && !options.some((o) => o.value === text)) return fail('Choose one of the options');
  if (schema.format === 'email' && !/^[^@\s]+@[^@\s]+$/.test(text)) return fail('Not an e-mail address');
  if (schema.format === 'uri' && !URL.canParse(text)) return fail('Not a URL');
  return { ok: true, value: text };
}

function parseNumber(schema: Schema, type: 'number' | 'integer', text: string): Parsed {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) return fail('Not a number');
  if (type === 'integer' && !Number.isInteger(value)) return fail('Must be a whole number');
  if (typeof schema.minimum === 'number' && value < schema.minimum) return fail(`At least ${schema.minimum}`);
  if (typeof schema.maximum === 'number' && value > schema.maximum) return fail(`At most ${schema.maximum}`);
  return { ok: true, value };
}

function checkArray(schema: Schema, items: Json[]): Parsed {
  if (typeof schema.minItems === 'number' && items.length < schema.minItems)
    return fail(`At least ${schema.minItems} items`);
  if (typeof schema.maxItems === 'number' && items.length > schema.maxItems)
    return fail(`At most ${schema.maxItems} items`);
  return { ok: true, value: items };
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
}

/** The text a field starts with (its default, shown the way the person would type it). */
export function initialText(field: FieldSpec): string {
  const value = field.defaultValue;
  if (value === undefined || value === null) return '';
  if (field.kind.type === 'array' && Array.isArray(value)) return value.map(String).join('\n');
  return field.kind.type === 'json' ? JSON.stringify(value, null, 2) : String(value);
}
