// Finds every describe/it/test title in the repository's test sources with the TypeScript parser (no type
// checking, so the scan of all test files stays well under a second).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { ruleIdsIn } from './ruleIds.js';

/**
 * A describe, it or test call. Only `it`/`test` titles (kind `test`) count as tests of the rules they name; a
 * describe's ids are checked for typos but cover nothing, since not every test under it need check them.
 * @typedef {{ file: string, line: number, kind: 'describe' | 'test', title: string, ids: string[] }} TestTitle
 */

const ROOTS = ['packages', 'apps', 'tooling'];
const SKIP_DIRS = new Set(['node_modules', 'dist', '.turbo', 'fixtures']);
const TEST_FUNCTIONS = new Set(['describe', 'it', 'test']);
const MAYBE_ID = /\b(?:L-[STC]|[SC])\d/;

/**
 * Test sources: every `*.test.ts`, and the `.ts` files under a `test/` folder or a `src/testing/` folder (contract
 * suites that define their tests for other packages to run).
 * @param {string} root repository root
 * @returns {string[]} paths relative to `root`, with `/`, sorted
 */
export function testSources(root) {
  /** @type {string[]} */
  const out = [];
  /** @param {string} dir */
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.has(entry.name)) walk(join(dir, entry.name));
        continue;
      }
      const path = relative(root, join(dir, entry.name)).split(sep).join('/');
      if (!path.endsWith('.ts') || path.endsWith('.d.ts')) continue;
      if (path.endsWith('.test.ts') || /\/test\//.test(path) || /\/src\/testing\//.test(path)) out.push(path);
    }
  };
  for (const top of ROOTS) if (existsSync(join(root, top))) walk(join(root, top));
  return out.sort();
}

/**
 * The base function of a test call: `it` for `it(...)`, `it.skip(...)`, `it.each(rows)(...)`; undefined when the
 * call only supplies the table (`it.each(rows)`) or is no test call.
 * @param {ts.Expression} callee
 * @returns {string | undefined}
 */
function testFunction(callee) {
  let node = callee;
  if (ts.isPropertyAccessExpression(node) && (node.name.text === 'each' || node.name.text === 'for')) return undefined;
  for (;;) {
    if (ts.isCallExpression(node)) node = node.expression;
    else if (ts.isPropertyAccessExpression(node)) node = node.expression;
    else break;
  }
  return ts.isIdentifier(node) && TEST_FUNCTIONS.has(node.text) ? node.text : undefined;
}

/**
 * @param {ts.Expression} arg
 * @param {ts.SourceFile} source
 */
function titleText(arg, source) {
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return arg.text;
  if (ts.isTemplateExpression(arg)) return arg.getText(source).slice(1, -1);
  return arg.getText(source);
}

/**
 * Every titled describe/it/test call of one file (none when the file names no rule id anywhere); a test's title is its describe titles and its own, joined by ` › `.
 * Rule ids count only in a call's own title.
 * @param {string} root
 * @param {string} file relative to root
 * @returns {TestTitle[]}
 */
export function testTitlesOf(root, file) {
  const text = readFileSync(join(root, file), 'utf8');
  // Only titles that name rules matter; a file without anything shaped like an id needs no parse.
  if (!MAYBE_ID.test(text)) return [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  /** @type {TestTitle[]} */
  const out = [];
  /** @param {ts.Node} node @param {string[]} outer */
  const visit = (node, outer) => {
    let inner = outer;
    const fn = ts.isCallExpression(node) ? testFunction(node.expression) : undefined;
    if (ts.isCallExpression(node) && fn !== undefined && node.arguments[0] !== undefined) {
      const own = titleText(node.arguments[0], source);
      inner = [...outer, own];
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      out.push({
        file,
        line,
        kind: fn === 'describe' ? 'describe' : 'test',
        title: inner.join(' › '),
        ids: ruleIdsIn(own),
      });
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, []);
  return out;
}

/**
 * @param {string} root
 * @returns {TestTitle[]}
 */
export function allTestTitles(root) {
  return testSources(root).flatMap((file) => testTitlesOf(root, file));
}
