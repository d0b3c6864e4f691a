// One entry point for the CLI and the test: the rendered map and its problems, from the repository as it is.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { mapProblems } from './checkMap.js';
import { renderMap } from './renderMap.js';
import { loadRules } from './rules.js';
import { allTestTitles } from './testTitles.js';

/** The repository root (this file is tooling/spec-map/src/specMap.js). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The generated map, relative to the repository root. */
export const MAP_PATH = 'docs/spec-map.md';
/** The rules file, relative to the repository root. */
export const RULES_PATH = 'tooling/spec-map/rules.json';

/**
 * @param {string} [root]
 * @returns {{ markdown: string, problems: string[] }}
 */
export function buildSpecMap(root = REPO_ROOT) {
  const rules = loadRules(join(root, RULES_PATH));
  const titles = allTestTitles(root);
  return { markdown: renderMap(rules, titles), problems: mapProblems(root, rules, titles) };
}
