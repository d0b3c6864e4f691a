import { describe, expect, it } from 'vitest';
import { formContentProblem } from '../src/formContent.js';

const schema = {
  type: 'object',
  properties: {
    confirm: { type: 'boolean' },
    name: { type: 'string', minLength: 2, maxLength: 5 },
    count: { type: 'integer', minimum: 1, maximum: 3 },
    ratio: { type: 'number', maximum: 1 },
    color: { type: 'string', enum: ['red', 'blue'] },
    size: {
      type: 'string',
      oneOf: [
        { const: 's', title: 'Small' },
        { const: 'l', title: 'Large' },
      ],
    },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 1 },
  },
  required: ['confirm'],
};

describe('formContentProblem', () => {
  it('accepts content that matches, ignoring properties the schema does not name', () => {
    expect(formContentProblem(schema, { confirm: true })).toBeUndefined();
    expect(
      formContentProblem(schema, {
        confirm: false,
        name: 'ann',
        count: 2,
        ratio: 0.5,
        color: 'red',
        size: 'l',
        tags: ['b'],
        extra: { anything: 1 },
      }),
    ).toBeUndefined();
  });

  it.each([
    [{}, 'content.confirm is required'],
    [undefined, 'content.confirm is required'],
    [{ confirm: 'yes' }, 'content.confirm must be a boolean'],
    [{ confirm: true, name: 5 }, 'content.name must be a string'],
    [{ confirm: true, name: 'a' }, 'content.name length must be at least 2'],
    [{ confirm: true, name: 'abcdef' }, 'content.name length must be at most 5'],
    [{ confirm: true, count: 1.5 }, 'content.count must be an integer'],
    [{ confirm: true, count: 9 }, 'content.count must be at most 3'],
    [{ confirm: true, ratio: '1' }, 'content.ratio must be a number'],
    [{ confirm: true, color: 'green' }, 'content.color is not one of the choices'],
    [{ confirm: true, size: 'm' }, 'content.size is not one of the choices'],
    [{ confirm: true, tags: 'a' }, 'content.tags must be an array'],
    [{ confirm: true, tags: ['c'] }, 'content.tags holds a value that is not one of the choices'],
    [{ confirm: true, tags: ['a', 'b'] }, 'content.tags must hold a number of values at most 1'],
  ])('refuses %j: %s', (content, problem) => {
    expect(formContentProblem(schema, content)).toBe(problem);
  });

  it('checks nothing without a schema', () => {
    expect(formContentProblem(undefined, { anything: 1 })).toBeUndefined();
  });
});
