import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

/** Every module reachable from an entry, following relative imports. */
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

it.each([
  ['client', 3],
  ['fetch', 8],
])('the %s entry and everything it imports stay free of node: modules and Node globals', (entry, atLeast) => {
  const modules = reachable(new URL(`../src/${entry}.ts`, import.meta.url));
  expect(modules.size).toBeGreaterThan(atLeast);
  for (const [path, source] of modules) {
    const code = source.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect({
      path,
      nodeImport: /from 'node:|import\('node:|require\(/.test(code),
      nodeGlobal: /\b(Buffer|process)\./.test(code),
    }).toEqual({
      path,
      nodeImport: false,
      nodeGlobal: false,
    });
  }
});

it('the fetch core is what the node adapter uses: one implementation of the binding', () => {
  const node = reachable(new URL('../src/createHttpHandler.ts', import.meta.url));
  const fetchCore = reachable(new URL('../src/createFetchHandler.ts', import.meta.url));
  for (const shared of ['httpBinding.ts', 'exchange.ts', 'validateRequestHeaders.ts', 'checkParamHeaders.ts']) {
    const inNode = [...node.keys()].some((path) => path.endsWith(`/src/${shared}`));
    const inFetch = [...fetchCore.keys()].some((path) => path.endsWith(`/src/${shared}`));
    expect({ shared, inNode, inFetch }).toEqual({ shared, inNode: true, inFetch: true });
  }
});
