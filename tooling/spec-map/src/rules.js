// The rules file (rules.json next to this package's package.json): one entry per normative rule.
import { readFileSync } from 'node:fs';

/**
 * @typedef {object} Rule
 * @property {string} id `S1`..`S46`, `C1`..`C25`, `L-S*`, `L-T*`, `L-C*`, `A-S*`, `A-C*`
 * @property {string} rule the rule in our own words, one line
 * @property {string} spec `<source>:<path>#<anchor>`, a source from SPEC_SOURCES
 * @property {string[]} impl implementing modules as `<repo path>#<exported name>`
 * @property {string} [gap] why the rule is not implemented (then no test may name it)
 * @property {string} [note] what of the rule is not implemented yet, when the rest is
 */

/** Public bases of the spec links; a rule's `spec` is `<key>:<rest>` and the link is base + rest. */
export const SPEC_SOURCES = {
  ext: 'https://github.com/modelcontextprotocol/ext-tasks/blob/main/specification/2026-07-28/tasks.md',
  sep: 'https://github.com/modelcontextprotocol/modelcontextprotocol/blob/main/seps/2663-tasks-extension.md',
  core26: 'https://modelcontextprotocol.io/specification/2026-07-28/',
  core25: 'https://modelcontextprotocol.io/specification/2025-11-25/',
  extauth: 'https://github.com/modelcontextprotocol/ext-auth/blob/main/specification/',
};

/** The tables of the map, in order: which ids each holds, and its heading. */
export const SECTIONS = [
  { prefix: 'S', heading: 'Tasks extension on 2026-07-28: server' },
  { prefix: 'C', heading: 'Tasks extension on 2026-07-28: client' },
  { prefix: 'L-T', heading: '2025-11-25 experimental tasks' },
  { prefix: 'L-S', heading: '2025-era core: server' },
  { prefix: 'L-C', heading: '2025-era core: client' },
  { prefix: 'A-S', heading: 'Authorization (2026-07-28 core and its extensions): server' },
  { prefix: 'A-C', heading: 'Authorization (2026-07-28 core and its extensions): client' },
];

/**
 * The section prefix of an id (`L-S4` → `L-S`, `S4` → `S`).
 * @param {string} id
 */
export function prefixOf(id) {
  return id.replace(/\d+$/, '');
}

/**
 * The public URL of a rule's `spec` reference, or undefined when its source key is unknown.
 * @param {string} spec
 */
export function specUrl(spec) {
  const colon = spec.indexOf(':');
  const key = spec.slice(0, colon);
  const base = Object.hasOwn(SPEC_SOURCES, key)
    ? SPEC_SOURCES[/** @type {keyof typeof SPEC_SOURCES} */ (key)]
    : undefined;
  return base === undefined || colon < 0 ? undefined : base + spec.slice(colon + 1);
}

/**
 * @param {string} path the rules file
 * @returns {Rule[]}
 */
export function loadRules(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}
