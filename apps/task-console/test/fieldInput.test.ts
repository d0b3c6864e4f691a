import { type FormField, formFields } from '@mcp-tasks/client';
import { describe, expect, it } from 'vitest';
import { initialText, readField } from '../src/fieldInput.js';
import { parseRoots } from '../src/inputForms.js';
import { progressOf } from '../src/taskCard.js';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name', minLength: 2, description: 'Who' },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: 'number' },
    ok: { type: 'boolean', default: true },
    env: { type: 'string', enum: ['staging', 'production'], default: 'staging' },
    level: { enum: [1, 2] },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, default: ['a', 'b'] },
    sizes: { type: 'array', items: { type: 'integer' } },
    colors: { type: 'array', items: { enum: ['red', 'blue'] } },
    nested: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x' } },
  },
  required: ['name', 'tags'],
};
const field = (name: string): FormField => {
  const found = formFields(schema).find((f) => f.name === name);
  if (found === undefined) throw new Error(name);
  return found;
};

describe('readField (a control’s value, read with the client’s shared form checks)', () => {
  it('types values, and leaves empty optional fields out', () => {
    expect(readField(field('count'), '7')).toEqual({ ok: true, value: 7 });
    expect(readField(field('ratio'), '0.5')).toEqual({ ok: true, value: 0.5 });
    expect(readField(field('ratio'), ' ')).toEqual({ ok: true, value: undefined });
    expect(readField(field('ok'), false)).toEqual({ ok: true, value: false });
    expect(readField(field('level'), '2')).toEqual({ ok: true, value: 2 });
    expect(readField(field('tags'), 'a\n\n b \n')).toEqual({ ok: true, value: ['a', 'b'] });
    expect(readField(field('sizes'), '1\n2')).toEqual({ ok: true, value: [1, 2] });
    expect(readField(field('colors'), ['red'])).toEqual({ ok: true, value: ['red'] });
    expect(readField(field('colors'), [])).toEqual({ ok: true, value: undefined });
    expect(readField(field('nested'), '{"a":"x"}')).toEqual({ ok: true, value: { a: 'x' } });
  });

  it('explains what is wrong in a sentence', () => {
    expect(readField(field('name'), ' ')).toEqual({ ok: false, error: 'Required' });
    expect(readField(field('name'), 'a')).toEqual({ ok: false, error: 'At least 2 characters' });
    expect(readField(field('count'), '1.5')).toEqual({ ok: false, error: 'Expected a whole number' });
    expect(readField(field('count'), '11')).toEqual({ ok: false, error: 'Must be ≤ 10' });
    expect(readField(field('env'), 'prod')).toEqual({ ok: false, error: 'Expected one of staging, production' });
    expect(readField(field('sizes'), '1\nz')).toEqual({ ok: false, error: '"z": expected a number' });
    expect(readField(field('nested'), '{')).toEqual({ ok: false, error: 'Expected JSON' });
  });

  it('starts each control with its default, as the person would type it', () => {
    expect(initialText(field('count'))).toBe('3');
    expect(initialText(field('tags'))).toBe('a\nb');
    expect(initialText(field('nested'))).toBe('{\n  "a": "x"\n}');
    expect(initialText(field('ratio'))).toBe('');
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
