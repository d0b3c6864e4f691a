import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkLayering } from '../src/checkLayering.js';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const bad = fileURLToPath(new URL('./fixtures/bad/', import.meta.url));

describe('checkLayering', () => {
  it('accepts this repository: every package keeps to the arrows', () => {
    expect(checkLayering(repository)).toEqual([]);
  });

  it('rejects imports and dependencies against the arrows, node: in runtime-neutral src, and escapes', () => {
    expect(checkLayering(bad)).toEqual([
      'packages/client/package.json: dependencies lists @mcp-tasks/server, against the layering arrows',
      'packages/client/src/index.ts: imports @mcp-tasks/transport-kit: against the layering arrows',
      'packages/extra: not in the layering rules (add it to tooling/layering/src/rules.js)',
      'packages/protocol/package.json: devDependencies lists @mcp-tasks/testkit, against the layering arrows',
      'packages/protocol/src/index.ts: imports node:fs: a runtime-neutral package imports no node: module',
      'packages/server/src/index.ts: imports ../../../apps/tool-server/src/main.js: reaches outside its package',
      'packages/server/src/index.ts: imports @mcp-tasks/transport-http: against the layering arrows',
    ]);
  });
});
