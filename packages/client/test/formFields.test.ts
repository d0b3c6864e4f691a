import { describe, expect, it } from 'vitest';
import { checkValue, type FormField, formFields, parseText, typingHint } from '../src/formFields.js';

/** An elicitation form (primitive properties only) and a tool's input schema (arrays, nested objects) alike. */
const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, description: 'Who' },
    count: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
    ratio: { type: 'number' },
    confirm: { type: 'boolean', default: true },
    env: { type: 'string', enum: ['dev', 'prod'], enumNames: ['Development', 'Production'] },
    region: {
      type: 'string',
      oneOf: [
        { const: 'eu', title: 'Europe' },
        { const: 'us', title: 'America' },
      ],
    },
    level: { enum: [1, 2, 3] },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
    sizes: { type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 1 },
    nested: { type: 'object', properties: { a: { type: 'string' } } },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
  },
  required: ['name', 'confirm'],
};

const fields = formFields(schema);
const field = (name: string): FormField => {
  const found = fields.find((f) => f.name === name);
  if (found === undefined) throw new Error(name);
  return found;
};

describe('formFields', () => {
  it('classifies every property in order with its kind, label, choices, default and required mark', () => {
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['name', 'string', true],
      ['count', 'integer', false],
      ['ratio', 'number', false],
      ['confirm', 'boolean', true],
      ['env', 'enum', false],
      ['region', 'enum', false],
      ['level', 'enum', false],
      ['tags', 'multi', false],
      ['sizes', 'list', false],
      ['nested', 'json', false],
      ['code', 'string', false],
    ]);
    expect(field('name')).toMatchObject({ label: 'Name', description: 'Who' });
    expect(field('count').default).toBe(2);
    expect(field('env').choices).toEqual([
      { value: 'dev', title: 'Development' },
      { value: 'prod', title: 'Production' },
    ]);
    expect(field('region').choices).toEqual([
      { value: 'eu', title: 'Europe' },
      { value: 'us', title: 'America' },
    ]);
    expect(field('sizes').itemType).toBe('integer');
    expect(formFields({ type: 'object' })).toEqual([]);
    expect(formFields('not a schema')).toEqual([]);
  });
});

describe('checkValue', () => {
  it('accepts values of the right type within the limits', () => {
    expect(checkValue(field('count'), 3)).toEqual({ ok: true, value: 3 });
    expect(checkValue(field('level'), 2)).toEqual({ ok: true, value: 2 });
    expect(checkValue(field('tags'), ['a', 'c'])).toEqual({ ok: true, value: ['a', 'c'] });
    expect(checkValue(field('nested'), { a: 'x' })).toEqual({ ok: true, value: { a: 'x' } });
    expect(checkValue(field('code'), 'ABC')).toEqual({ ok: true, value: 'ABC' });
  });

  it('says what is wrong', () => {
    expect(checkValue(field('count'), 2.5)).toEqual({ ok: false, reason: 'expected a whole number' });
    expect(checkValue(field('count'), 9)).toEqual({ ok: false, reason: 'must be ≤ 5' });
    expect(checkValue(field('confirm'), 'yes')).toEqual({ ok: false, reason: 'expected true or false' });
    expect(checkValue(field('env'), 'qa')).toEqual({ ok: false, reason: 'expected one of dev, prod' });
    expect(checkValue(field('level'), '2').ok).toBe(false);
    expect(checkValue(field('name'), 'x')).toEqual({ ok: false, reason: 'at least 2 characters' });
    expect(checkValue(field('tags'), ['a', 'b', 'c'])).toEqual({ ok: false, reason: 'pick at most 2' });
    expect(checkValue(field('tags'), ['z'])).toEqual({ ok: false, reason: '"z": expected one of a, b, c' });
    expect(checkValue(field('sizes'), [])).toEqual({ ok: false, reason: 'pick at least 1' });
    expect(checkValue(field('sizes'), [-1])).toEqual({ ok: false, reason: '-1: must be ≥ 0' });
    expect(checkValue(field('code'), 'abc')).toEqual({ ok: false, reason: 'expected text matching ^[A-Z]{3}$' });
  });

  it('checks string formats: email, uri, date (a real day), date-time', () => {
    const [email, uri, date, dateTime] = formFields({
      properties: {
        email: { type: 'string', format: 'email' },
        uri: { type: 'string', format: 'uri' },
        date: { type: 'string', format: 'date' },
        dateTime: { type: 'string', format: 'date-time' },
      },
    });
    if (email === undefined || uri === undefined || date === undefined || dateTime === undefined) throw new Error();
    expect(checkValue(email, 'a@b.io').ok).toBe(true);
    expect(checkValue(email, 'nobody')).toEqual({ ok: false, reason: 'expected an email address (name@example.com)' });
    expect(checkValue(uri, 'https://example.com/x').ok).toBe(true);
    expect(checkValue(uri, 'example.com').ok).toBe(false);
    expect(checkValue(date, '2024-02-29').ok).toBe(true);
    expect(checkValue(date, '2025-02-30').ok).toBe(false);
    expect(checkValue(dateTime, '2025-06-01T12:30:00+02:00').ok).toBe(true);
    expect(checkValue(dateTime, '2025-06-01 noon').ok).toBe(false);
  });
});

describe('parseText', () => {
  it('reads typed text as the value the field asks for', () => {
    expect(parseText(field('ratio'), ' 0.5 ')).toEqual({ ok: true, value: 0.5 });
    expect(parseText(field('name'), 'Ada')).toEqual({ ok: true, value: 'Ada' });
    expect(parseText(field('confirm'), 'no')).toEqual({ ok: true, value: false });
    expect(parseText(field('level'), '3')).toEqual({ ok: true, value: 3 });
    expect(parseText(field('sizes'), '1\n\n 2 \n')).toEqual({ ok: true, value: [1, 2] });
    expect(parseText(field('tags'), 'a\nb')).toEqual({ ok: true, value: ['a', 'b'] });
    expect(parseText(field('nested'), '{"a":"x"}')).toEqual({ ok: true, value: { a: 'x' } });
  });

  it('explains typed text that does not fit', () => {
    expect(parseText(field('ratio'), 'abc')).toEqual({ ok: false, reason: 'expected a number' });
    expect(parseText(field('count'), '')).toEqual({ ok: false, reason: 'expected a number' });
    expect(parseText(field('count'), '1.5')).toEqual({ ok: false, reason: 'expected a whole number' });
    expect(parseText(field('sizes'), '1\nz')).toEqual({ ok: false, reason: '"z": expected a number' });
    expect(parseText(field('nested'), '{')).toEqual({ ok: false, reason: 'expected JSON' });
  });
});

describe('typingHint', () => {
  it('describes what to type for numbers with a range and formatted strings', () => {
    expect(typingHint(field('count'))).toBe('a whole number from 1 to 5');
    expect(typingHint(field('ratio'))).toBe('a number');
    expect(typingHint(field('name'))).toBeUndefined();
    expect(typingHint(formFields({ properties: { d: { type: 'string', format: 'date' } } })[0] as FormField)).toBe(
      'a date (YYYY-MM-DD)',
    );
  });
});
