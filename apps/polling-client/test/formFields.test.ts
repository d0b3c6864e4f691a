import type { PrimitiveSchemaDefinition } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { checkValue, formFields, parseTyped, typingHint } from '../src/formFields.js';

const properties: Record<string, PrimitiveSchemaDefinition> = {
  name: { type: 'string', title: 'Name', minLength: 2 },
  count: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
  ratio: { type: 'number' },
  confirm: { type: 'boolean', description: 'Really?' },
  env: { type: 'string', enum: ['dev', 'prod'] },
  region: {
    type: 'string',
    oneOf: [
      { const: 'eu', title: 'Europe' },
      { const: 'us', title: 'America' },
    ],
  },
  tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, maxItems: 2 },
};

describe('formFields', () => {
  const fields = formFields(properties, ['name', 'confirm']);
  const field = (name: string) => {
    const found = fields.find((f) => f.name === name);
    if (found === undefined) throw new Error(name);
    return found;
  };

  it('classifies every field kind with labels, choices, defaults and required marks', () => {
    expect(fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ['name', 'string', true],
      ['count', 'integer', false],
      ['ratio', 'number', false],
      ['confirm', 'boolean', true],
      ['env', 'enum', false],
      ['region', 'enum', false],
      ['tags', 'multi', false],
    ]);
    expect(field('name').label).toBe('Name');
    expect(field('count').default).toBe(2);
    expect(field('region').choices).toEqual([
      { value: 'eu', title: 'Europe' },
      { value: 'us', title: 'America' },
    ]);
  });

  it('checks answers-file values against the field', () => {
    expect(checkValue(field('count'), 3)).toEqual({ ok: true, value: 3 });
    expect(checkValue(field('count'), 2.5).ok).toBe(false);
    expect(checkValue(field('count'), 9).ok).toBe(false);
    expect(checkValue(field('confirm'), 'yes').ok).toBe(false);
    expect(checkValue(field('env'), 'qa').ok).toBe(false);
    expect(checkValue(field('name'), 'x').ok).toBe(false);
    expect(checkValue(field('tags'), ['a', 'b', 'c']).ok).toBe(false);
  });

  it('parses typed numbers and checks typed text', () => {
    expect(parseTyped(field('ratio'), ' 0.5 ')).toEqual({ ok: true, value: 0.5 });
    expect(parseTyped(field('ratio'), 'abc').ok).toBe(false);
    expect(parseTyped(field('count'), '')).toEqual({ ok: false, reason: 'expected a number' });
    expect(parseTyped(field('name'), 'Ada')).toEqual({ ok: true, value: 'Ada' });
  });

  it('checks string formats: email, uri, date (a real day), date-time', () => {
    const [email, uri, date, dateTime] = formFields({
      email: { type: 'string', format: 'email' },
      uri: { type: 'string', format: 'uri' },
      date: { type: 'string', format: 'date' },
      dateTime: { type: 'string', format: 'date-time' },
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

  it('describes what to type for numbers with a range and formatted strings', () => {
    expect(typingHint(field('count'))).toBe('a whole number from 1 to 5');
    expect(typingHint(field('ratio'))).toBe('a number');
    expect(typingHint(field('name'))).toBeUndefined();
  });
});
