import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  bareSpecifier,
  checkManifest,
  checkPackedManifest,
  exportTargets,
  internalRangesServed,
  undeclaredTypeImports,
} from '../manifestRules.js';

const rootManifest = { repository: { type: 'git', url: 'git+https://example.test/r.git' } };
const LICENSE = 'MIT License\n';
const good = {
  name: '@mcp-tasks/thing',
  license: 'MIT',
  repository: { type: 'git', url: 'git+https://example.test/r.git', directory: 'packages/thing' },
  homepage: 'https://example.test/r#readme',
  type: 'module',
  engines: { node: '>=20' },
  sideEffects: false,
  exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
  files: ['dist', 'src'],
  dependencies: { '@mcp-tasks/protocol': 'workspace:^', zod: 'catalog:' },
};

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
function folderWith(files: Record<string, string>): string {
  const made = mkdtempSync(join(tmpdir(), 'release-check-'));
  dir = made;
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return made;
}

describe('checkManifest', () => {
  it('accepts a complete manifest with LICENSE and README', () => {
    const pkg = { folder: 'thing', manifest: good, dir: folderWith({ LICENSE, 'README.md': '# thing' }) };
    expect(checkManifest(pkg, rootManifest, LICENSE)).toEqual([]);
  });

  it('flags an exact internal dependency, a missing LICENSE and missing fields', () => {
    const manifest = { ...good, dependencies: { '@mcp-tasks/protocol': 'workspace:*' } };
    delete manifest.engines;
    delete manifest.homepage;
    const pkg = { folder: 'thing', manifest, dir: folderWith({ 'README.md': '# thing' }) };
    const problems = checkManifest(pkg, rootManifest, LICENSE).join('\n');
    expect(problems).toMatch(/workspace:\*.*exact version/);
    expect(problems).toMatch(/no LICENSE/);
    expect(problems).toMatch(/engines\.node/);
    expect(problems).toMatch(/homepage/);
  });

  it('flags a peer the package is not tested against', () => {
    const manifest = { ...good, peerDependencies: { express: '^5.0.0' } };
    const pkg = { folder: 'thing', manifest, dir: folderWith({ LICENSE, 'README.md': '#' }) };
    expect(checkManifest(pkg, rootManifest, LICENSE)).toEqual([
      '@mcp-tasks/thing: peer express is not a devDependency, so the package is never built or tested against it',
    ]);
  });
});

describe('checkPackedManifest', () => {
  const internal = new Set(['@mcp-tasks/protocol']);
  it('accepts internal ranges and rejects exact versions or leftover workspace: ranges', () => {
    expect(checkPackedManifest({ name: 'a', dependencies: { '@mcp-tasks/protocol': '^0.1.0' } }, internal)).toEqual([]);
    expect(checkPackedManifest({ name: 'a', dependencies: { '@mcp-tasks/protocol': '0.1.0' } }, internal)).toEqual([
      'a: packed dependencies.@mcp-tasks/protocol is "0.1.0", an exact version, not a range',
    ]);
    expect(checkPackedManifest({ name: 'a', dependencies: { x: 'workspace:^' } }, internal)).toHaveLength(1);
  });
});

describe('exports', () => {
  it('lists export targets and turns subpaths into specifiers', () => {
    expect(exportTargets({ exports: { '.': { types: './dist/i.d.ts', default: './dist/i.js' } } })).toEqual([
      'dist/i.d.ts',
      'dist/i.js',
    ]);
    expect(bareSpecifier('@s/p', '.')).toBe('@s/p');
    expect(bareSpecifier('@s/p', './client')).toBe('@s/p/client');
  });
});

describe('undeclaredTypeImports', () => {
  it('names a package the declarations import without depending on it, ignoring prose and node: built-ins', () => {
    const dts = [
      "import type { WebSocket } from 'ws';\nimport { z } from 'zod';\nimport type { A } from './a.js';",
      "/** say it is imported from 'nowhere' */\nexport type B = import('node:http').Server;",
    ];
    expect(undeclaredTypeImports({ name: 'p', dependencies: { zod: '^4' } }, dts)).toEqual([
      'p: its type declarations import "ws", which it does not depend on',
    ]);
  });
});

describe('internalRangesServed', () => {
  const versions = new Map([
    ['@mcp-tasks/protocol', '0.1.0'],
    ['@mcp-tasks/task-store', '0.1.3'],
  ]);
  const packed = (dependencies: Record<string, string>) => ({ name: '@mcp-tasks/thing', dependencies });

  it('accepts the ranges pnpm pack writes when the packed versions satisfy them, as a registry would', () => {
    expect(
      internalRangesServed(packed({ '@mcp-tasks/protocol': '^0.1.0', '@mcp-tasks/task-store': '~0.1.2' }), versions),
    ).toEqual([]);
    expect(internalRangesServed(packed({ zod: '^4.0.0' }), versions)).toEqual([]);
  });

  it('names a dependency whose packed version the range would not take from a registry', () => {
    expect(internalRangesServed(packed({ '@mcp-tasks/protocol': '^0.2.0' }), versions)).toEqual([
      '@mcp-tasks/thing: packed dependencies.@mcp-tasks/protocol is "^0.2.0", which version 0.1.0 does not satisfy',
    ]);
    // On 0.x a caret fixes the minor: ^0.0.1 does not take 0.1.0.
    expect(internalRangesServed(packed({ '@mcp-tasks/protocol': '^0.0.1' }), versions)).toHaveLength(1);
    expect(internalRangesServed(packed({ '@mcp-tasks/task-store': '~0.2.0' }), versions)).toHaveLength(1);
  });
});
