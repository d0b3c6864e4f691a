/**
 * Checks the shape of every published package's src/: the 2025 era stays behind its folder's entry file and only
 * the composition files reach it (rules.js `ERA_COMPOSERS`); no two files import each other in a circle (type-only
 * imports count: a circle of types is still a knot a reader must untie); no module over `LIMITS.moduleLines` lines
 * and no function, method or arrow function over `LIMITS.functionLines`. Reads files only; returns the violations.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ERA_COMPOSERS, ERA_FOLDER, LIMITS } from './rules.js';

/** @type {typeof import('typescript')} */
const ts = createRequire(import.meta.url)('typescript');
const RELATIVE_IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

/**
 * @typedef {{ eraComposers?: Readonly<Record<string, readonly string[]>>, limits?: typeof LIMITS }} StructureRules
 * @param {string} root The repository root (the folder holding packages/).
 * @param {StructureRules} [rules] Overrides for tests; defaults to rules.js.
 * @returns {string[]} One line per violation, empty when none. The text before ` (` names it stably (no line numbers
 *   or counts), so a known one can be listed by that prefix.
 */
export function checkStructure(root, rules = {}) {
  const composers = rules.eraComposers ?? ERA_COMPOSERS;
  const limits = rules.limits ?? LIMITS;
  const violations = [];
  const packagesDir = join(root, 'packages');
  for (const dir of readdirSync(packagesDir).sort()) {
    const src = join(packagesDir, dir, 'src');
    if (!isDirectory(src)) continue;
    const files = tsFiles(src);
    const graph = new Map(files.map((file) => [file, relativeImports(file)]));
    const name = (/** @type {string} */ file) => relative(root, file).split(sep).join('/');
    violations.push(...eraViolations(src, graph, new Set(composers[dir] ?? []), name));
    violations.push(...circles(graph).map((circle) => `${circle.map(name).join(' -> ')}: import circle`));
    for (const file of files) violations.push(...sizeViolations(file, name(file), limits));
  }
  return violations;
}

/**
 * @param {string} src @param {Map<string, string[]>} graph @param {Set<string>} composers
 * @param {(file: string) => string} name
 */
function eraViolations(src, graph, composers, name) {
  const folder = join(src, ERA_FOLDER);
  const entry = join(folder, 'index.ts');
  const found = [];
  for (const [file, targets] of graph) {
    if (file.startsWith(folder + sep)) continue;
    for (const target of targets) {
      if (!target.startsWith(folder + sep)) continue;
      const own = relative(src, file).split(sep).join('/');
      if (!composers.has(own)) found.push(`${name(file)}: imports ${name(target)}: the core must not import the era`);
      else if (target !== entry) found.push(`${name(file)}: imports ${name(target)}: go through ${name(entry)}`);
    }
  }
  return found;
}

/**
 * Every elementary circle, each reported once, starting from its smallest file (imports kept in the package).
 * @param {Map<string, string[]>} graph @returns {string[][]}
 */
function circles(graph) {
  const found = new Map();
  /** @type {(start: string, file: string, path: string[], onPath: Set<string>) => void} */
  const visit = (start, file, path, onPath) => {
    for (const next of graph.get(file) ?? []) {
      if (next === start) {
        const key = [...path].sort().join('|');
        if (!found.has(key)) found.set(key, [...path, start]);
      } else if (!onPath.has(next) && next > start && graph.has(next) && path.length < 12) {
        onPath.add(next);
        visit(start, next, [...path, next], onPath);
        onPath.delete(next);
      }
    }
  };
  for (const start of [...graph.keys()].sort()) visit(start, start, [start], new Set([start]));
  return [...found.values()];
}

/** @param {string} file @param {string} shown @param {typeof LIMITS} limits */
function sizeViolations(file, shown, limits) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  if (lines > limits.moduleLines && !onlyReExports(source)) {
    found.push(`${shown}: module over ${limits.moduleLines} lines (${lines})`);
  }
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    if (isFunctionLike(node) && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const length = last - first + 1;
      if (length > limits.functionLines) {
        found.push(
          `${shown}: ${functionName(node, source)} over ${limits.functionLines} lines (${length}, line ${first + 1})`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * True for an entry file of named re-exports only (`export { a, type B } from './x.js'`): the package's table of
 * contents, whose length is the size of its API, not a module doing too much (and `export *` is not allowed).
 * @param {import('typescript').SourceFile} source
 */
function onlyReExports(source) {
  return source.statements.every(
    (statement) => ts.isExportDeclaration(statement) && statement.moduleSpecifier !== undefined,
  );
}

/** @param {import('typescript').Node} node @returns {node is import('typescript').FunctionLikeDeclaration} */
function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** @param {import('typescript').FunctionLikeDeclaration} node @param {import('typescript').SourceFile} source */
function functionName(node, source) {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name !== undefined) return node.name.getText(source);
  const parent = node.parent;
  if (parent !== undefined && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent))) {
    return parent.name.getText(source);
  }
  if (parent !== undefined && ts.isCallExpression(parent)) {
    const label = parent.arguments.find((argument) => ts.isStringLiteralLike(argument));
    const callee = parent.expression.getText(source);
    return label === undefined ? `a function passed to ${callee}` : `${callee}('${label.text}')`;
  }
  return 'a function';
}

/** @param {string} file @returns {string[]} the package files it imports by relative path (`.js` → `.ts`) */
function relativeImports(file) {
  const targets = new Set();
  for (const [, specifier = ''] of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT)) {
    targets.add(resolve(dirname(file), specifier.replace(/\.js$/, '.ts')));
  }
  return [...targets];
}

/** @param {string} dir @returns {string[]} */
function tsFiles(dir) {
  const files = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (isDirectory(path)) files.push(...tsFiles(path));
    else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** @param {string} path */
function isDirectory(path) {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The violations left once the `known` ones (named by the text before ` (`) are taken out, plus one line for each
 * known entry that no longer occurs, so the list can only shrink: a fixed violation must be struck from it.
 * @param {string[]} violations @param {readonly string[]} known
 */
export function applyKnown(violations, known) {
  const keys = new Set(violations.map(violationKey));
  const listed = new Set(known);
  return [
    ...violations.filter((line) => !listed.has(violationKey(line))),
    ...known.filter((key) => !keys.has(key)).map((key) => `${key}: fixed, strike it from known-violations.json`),
  ];
}

/** @param {string} line */
function violationKey(line) {
  const cut = line.indexOf(' (');
  return cut === -1 ? line : line.slice(0, cut);
}
