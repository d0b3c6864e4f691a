import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/** Every module reachable from the client entry, following relative imports. */
function reachable(entry: URL): Map<string, string> {
  const seen = new Map<string, string>();
  const visit = (url: URL): void => {
    const path = fileURLToPath(url);
    if (seen.has(path)) return;
    const source = readFileSync(path, 'utf8');
    seen.set(path, source);
    for (const [, spec] of source.matchAll(/from '(\.[^']+)\.js'/g)) visit(new URL(`${spec}.ts`, url));
  };
  visit(entry);
  return seen;
}

it('the client entry and everything it imports stay free of node: modules and Node globals (browser-safe)', () => {
  const modules = reachable(new URL('../src/client.ts', import.meta.url));
  expect(modules.size).toBeGreaterThan(3);
  for (const [path, source] of modules) {
    const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect({
      path,
      nodeImport: /from 'node:|require\(/.test(code),
      nodeGlobal: /\b(Buffer|process)\./.test(code),
    }).toEqual({
      path,
      nodeImport: false,
      nodeGlobal: false,
    });
  }
});
