import type { PrimitiveSchemaDefinition } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { checkValue, formFields, parseTyped } from '../src/formFields.js';

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

  it('parses typed text: yes/no, numbers, choices by number or value, comma lists', () => {
    expect(parseTyped(field('confirm'), 'Y')).toEqual({ ok: true, value: true });
    expect(parseTyped(field('confirm'), 'no')).toEqual({ ok: true, value: false });
    expect(parseTyped(field('ratio'), ' 0.5 ')).toEqual({ ok: true, value: 0.5 });
    expect(parseTyped(field('ratio'), 'abc').ok).toBe(false);
    expect(parseTyped(field('region'), '2')).toEqual({ ok: true, value: 'us' });
    expect(parseTyped(field('env'), 'prod')).toEqual({ ok: true, value: 'prod' });
    expect(parseTyped(field('tags'), 'a, 3')).toEqual({ ok: true, value: ['a', 'c'] });
  });
});
