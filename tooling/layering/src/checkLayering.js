/**
 * Checks the published packages against the dependency arrows in rules.js, from two sources: what each
 * package.json declares (dependencies, peerDependencies, devDependencies) and what each source file imports
 * (static, side-effect, re-export and dynamic imports; src/ and test/). Reads files only; returns the violations.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { BUILD_CONFIG, LAYERS, RUNTIME_NEUTRAL, SCOPE, TEST_ONLY } from './rules.js';

const SOURCE = /\.(?:ts|mts|cts|js|mjs|cjs)$/;
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/**
 * @typedef {{ layers?: Readonly<Record<string, readonly string[]>>, runtimeNeutral?: readonly string[] }} Rules
 * @param {string} root The repository root (the folder holding packages/).
 * @param {Rules} [rules] Overrides for tests; defaults to rules.js.
 * @returns {string[]} One line per violation, empty when the packages keep to the arrows.
 */
export function checkLayering(root, rules = {}) {
  const layers = rules.layers ?? LAYERS;
  const neutral = new Set(rules.runtimeNeutral ?? RUNTIME_NEUTRAL);
  const packagesDir = join(root, 'packages');
  const violations = [];
  for (const dir of readdirSync(packagesDir).sort()) {
    const manifestPath = join(packagesDir, dir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const allowed = layers[dir];
    if (allowed === undefined) {
      violations.push(`packages/${dir}: not in the layering rules (add it to tooling/layering/src/rules.js)`);
      continue;
    }
    const permitted = new Set([`${SCOPE}${dir}`, ...allowed.map((name) => `${SCOPE}${name}`)]);
    const testOnly = new Set((TEST_ONLY[dir] ?? []).map((name) => `${SCOPE}${name}`));
    violations.push(...checkManifest(dir, JSON.parse(readFileSync(manifestPath, 'utf8')), permitted, testOnly));
    violations.push(...checkSources(root, join(packagesDir, dir), permitted, neutral.has(dir), testOnly));
  }
  return violations;
}

/**
 * @param {string} dir @param {Record<string, Record<string, string> | undefined>} manifest @param {Set<string>} permitted
 * @param {Set<string>} testOnly
 */
function checkManifest(dir, manifest, permitted, testOnly) {
  const found = [];
  for (const field of ['dependencies', 'peerDependencies', 'devDependencies']) {
    for (const name of Object.keys(manifest[field] ?? {})) {
      if (!name.startsWith(SCOPE) || permitted.has(name)) continue;
      if (field === 'devDependencies' && (BUILD_CONFIG.includes(name) || testOnly.has(name))) continue;
      found.push(`packages/${dir}/package.json: ${field} lists ${name}, against the layering arrows`);
    }
  }
  return found;
}

/**
 * @param {string} root @param {string} packageDir @param {Set<string>} permitted @param {boolean} neutral
 * @param {Set<string>} testOnly
 */
function checkSources(root, packageDir, permitted, neutral, testOnly) {
  const found = [];
  for (const sub of ['src', 'test']) {
    const allowed = sub === 'test' ? new Set([...permitted, ...testOnly]) : permitted;
    for (const file of sourceFiles(join(packageDir, sub))) {
      const where = relative(root, file).split(sep).join('/');
      for (const [, specifier = ''] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const problem = importProblem(specifier, file, packageDir, allowed, neutral && sub === 'src');
        if (problem !== undefined) found.push(`${where}: imports ${specifier}: ${problem}`);
      }
    }
  }
  return found;
}

/**
 * @param {string} specifier @param {string} file @param {string} packageDir @param {Set<string>} permitted
 * @param {boolean} neutral
 * @returns {string | undefined}
 */
function importProblem(specifier, file, packageDir, permitted, neutral) {
  if (specifier.startsWith('.')) {
    const target = resolve(file, '..', specifier);
    return target === packageDir || target.startsWith(packageDir + sep) ? undefined : 'reaches outside its package';
  }
  if (specifier.startsWith('node:')) return neutral ? 'a runtime-neutral package imports no node: module' : undefined;
  if (!specifier.startsWith(SCOPE)) return undefined;
  const name = specifier.split('/').slice(0, 2).join('/');
  if (BUILD_CONFIG.includes(name)) return file.includes(`${sep}src${sep}`) ? 'build configuration in src' : undefined;
  return permitted.has(name) ? undefined : 'against the layering arrows';
}

/** @param {string} dir @returns {string[]} */
function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  const files = [];
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry);
    if (entry === 'node_modules' || entry === 'dist') continue;
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (SOURCE.test(entry)) files.push(path);
  }
  return files;
}
