import { describe, expect, it } from 'vitest';
import { collectParamHeaders } from '../src/index.js';

const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('collectParamHeaders (x-mcp-header constraints)', () => {
  it('collects annotations reachable through properties chains, with their paths', () => {
    expect(
      collectParamHeaders(
        schema({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          nested: { type: 'object', properties: { flag: { type: 'boolean', 'x-mcp-header': 'Method' } } },
          plain: { type: 'string', default: { 'x-mcp-header': 'data, not an annotation' } },
        }),
      ),
    ).toEqual([
      { path: ['region'], name: 'Region' },
      { path: ['nested', 'flag'], name: 'Method' },
    ]);
  });

  it.each([
    ['an empty name', schema({ a: { type: 'string', 'x-mcp-header': '' } })],
    ['a space', schema({ a: { type: 'string', 'x-mcp-header': 'My Region' } })],
    ['a colon', schema({ a: { type: 'string', 'x-mcp-header': 'Region:Primary' } })],
    ['non-ASCII', schema({ a: { type: 'string', 'x-mcp-header': 'Région' } })],
    ['a tab', schema({ a: { type: 'string', 'x-mcp-header': 'Region\t1' } })],
    [
      'a case-insensitive duplicate',
      schema({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } }),
    ],
    ['type number', schema({ a: { type: 'number', 'x-mcp-header': 'A' } })],
    ['type object', schema({ a: { type: 'object', 'x-mcp-header': 'A' } })],
    ['type array', schema({ a: { type: 'array', 'x-mcp-header': 'A' } })],
    ['under items', schema({ a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } } })],
    ['under anyOf', schema({ a: { anyOf: [{ type: 'string', 'x-mcp-header': 'A' }] } })],
    ['under $defs', { type: 'object', $defs: { s: { type: 'string', 'x-mcp-header': 'A' } } }],
    ['on the root', { type: 'string', 'x-mcp-header': 'A' }],
  ])('rejects a tool whose annotation has %s', (_why, inputSchema) => {
    expect(typeof collectParamHeaders(inputSchema)).toBe('string');
  });
});
