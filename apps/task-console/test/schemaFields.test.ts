import { describe, expect, it } from 'vitest';
import { parseRoots } from '../src/inputForms.js';
import { describeFields, initialText, parseField } from '../src/schemaFields.js';
import { progressOf } from '../src/taskCard.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, description: 'Who' },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: 'number' },
    ok: { type: 'boolean', default: true },
    env: { type: 'string', enum: ['staging', 'production'], default: 'staging' },
    level: {
      oneOf: [
        { const: 'lo', title: 'Low' },
        { const: 'hi', title: 'High' },
      ],
    },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
    sizes: { type: 'array', items: { type: 'integer' } },
    colors: { type: 'array', items: { enum: ['red', 'blue'] } },
    nested: { type: 'object', properties: { a: { type: 'string' } } },
  },
  required: ['name', 'tags'],
};

describe('describeFields', () => {
  it('describes every property in order with its kind, label, required flag and default', () => {
    const fields = describeFields(schema);
    expect(fields.map((f) => [f.name, f.kind.type, f.required])).toEqual([
      ['name', 'string', true],
      ['count', 'integer', false],
      ['ratio', 'number', false],
      ['ok', 'boolean', false],
      ['env', 'string', false],
      ['level', 'string', false],
      ['tags', 'array', true],
      ['sizes', 'array', false],
      ['colors', 'array', false],
      ['nested', 'json', false],
    ]);
    expect(fields[0]).toMatchObject({ label: 'Name', description: 'Who' });
    expect(fields[5]?.kind).toEqual({
      type: 'string',
      options: [
        { value: 'lo', label: 'Low' },
        { value: 'hi', label: 'High' },
      ],
    });
    expect(initialText(fields[1]!)).toBe('3');
    expect(describeFields({ type: 'object' })).toEqual([]);
  });
});

describe('parseField', () => {
  const field = (name: string) => describeFields(schema).find((f) => f.name === name)!;

  it('types values and leaves empty optional fields out', () => {
    expect(parseField(field('count'), '7')).toEqual({ ok: true, value: 7 });
    expect(parseField(field('ratio'), '0.5')).toEqual({ ok: true, value: 0.5 });
    expect(parseField(field('ratio'), '')).toEqual({ ok: true, value: undefined });
    expect(parseField(field('ok'), false)).toEqual({ ok: true, value: false });
    expect(parseField(field('tags'), 'a\n\n b \n')).toEqual({ ok: true, value: ['a', 'b'] });
    expect(parseField(field('sizes'), '1\n2')).toEqual({ ok: true, value: [1, 2] });
    expect(parseField(field('colors'), ['red'])).toEqual({ ok: true, value: ['red'] });
    expect(parseField(field('nested'), '{"a":"x"}')).toEqual({ ok: true, value: { a: 'x' } });
  });

  it('explains what is wrong', () => {
    expect(parseField(field('name'), ' ')).toEqual({ ok: false, error: 'Required' });
    expect(parseField(field('name'), 'a')).toEqual({ ok: false, error: 'At least 2 characters' });
    expect(parseField(field('count'), '1.5')).toEqual({ ok: false, error: 'Must be a whole number' });
    expect(parseField(field('count'), '11')).toEqual({ ok: false, error: 'At most 10' });
    expect(parseField(field('count'), 'x')).toEqual({ ok: false, error: 'Not a number' });
    expect(parseField(field('env'), 'prod')).toEqual({ ok: false, error: 'Choose one of the options' });
    expect(parseField(field('sizes'), '1\nz')).toEqual({ ok: false, error: '"z": Not a number' });
    expect(parseField(field('nested'), '{')).toEqual({ ok: false, error: 'Not valid JSON' });
  });
});

describe('helpers', () => {
  it('reads progress from a status message', () => {
    expect(progressOf('hashing: 16/64 MiB')).toBe(0.25);
    expect(progressOf('aggregated 1,000/4,000 rows')).toBe(0.25);
    expect(progressOf('waiting')).toBeUndefined();
    expect(progressOf(undefined)).toBeUndefined();
  });

  it('parses the roots editor', () => {
    expect(parseRoots('file:///work/app/\n\n file:///tmp ')).toEqual([
      { uri: 'file:///work/app/', name: 'app' },
      { uri: 'file:///tmp', name: 'tmp' },
    ]);
  });
});
