// Everything that makes the spec map wrong: rules without tests, tests naming unknown rules, gaps that gained a
// test, implementing modules or exports that do not exist, and malformed entries of the rules file.
import { moduleExports } from './moduleExports.js';
import { prefixOf, SECTIONS, specUrl } from './rules.js';

/** @typedef {import('./rules.js').Rule} Rule */
/** @typedef {import('./testTitles.js').TestTitle} TestTitle */

/**
 * The tests (not describes) naming each rule id (ids no rule has included).
 * @param {TestTitle[]} titles
 * @returns {Map<string, TestTitle[]>}
 */
export function testsByRule(titles) {
  /** @type {Map<string, TestTitle[]>} */
  const byId = new Map();
  for (const title of titles) {
    if (title.kind !== 'test') continue;
    for (const id of title.ids) byId.set(id, [...(byId.get(id) ?? []), title]);
  }
  return byId;
}

/**
 * @param {Rule} rule
 * @returns {string[]}
 */
function entryProblems(rule) {
  const problems = [];
  if (!SECTIONS.some((section) => section.prefix === prefixOf(rule.id)) || !/\d$/.test(rule.id)) {
    problems.push(`rule ${rule.id}: the id is none of S*, C*, L-S*, L-T*, L-C*, A-S*, A-C*`);
  }
  if (typeof rule.rule !== 'string' || rule.rule.trim() === '') problems.push(`rule ${rule.id}: no wording`);
  if (typeof rule.spec !== 'string' || specUrl(rule.spec) === undefined) {
    problems.push(
      `rule ${rule.id}: spec "${rule.spec}" does not start with a known source (ext:, sep:, core26:, core25:, extauth:)`,
    );
  }
  if (!Array.isArray(rule.impl)) problems.push(`rule ${rule.id}: impl must be a list`);
  else if (rule.impl.length === 0 && rule.gap === undefined) {
    problems.push(`rule ${rule.id}: no implementing module (or mark it as a gap with a reason)`);
  }
  if (rule.gap !== undefined && (typeof rule.gap !== 'string' || rule.gap.trim() === '')) {
    problems.push(`rule ${rule.id}: a gap needs a one-line reason`);
  }
  if (rule.note !== undefined && rule.gap !== undefined) problems.push(`rule ${rule.id}: a gap needs no note`);
  return problems;
}

/**
 * @param {string} root
 * @param {Rule[]} rules
 * @returns {string[]}
 */
function implProblems(root, rules) {
  /** @type {Map<string, Set<string> | undefined>} */
  const cache = new Map();
  const problems = [];
  for (const rule of rules) {
    for (const ref of Array.isArray(rule.impl) ? rule.impl : []) {
      const [path, name, extra] = ref.split('#');
      if (path === undefined || name === undefined || extra !== undefined || name === '') {
        problems.push(`rule ${rule.id}: impl "${ref}" is not <path>#<exported name>`);
        continue;
      }
      if (!cache.has(path)) cache.set(path, moduleExports(root, path));
      const names = cache.get(path);
      if (names === undefined) problems.push(`rule ${rule.id}: impl module ${path} does not exist`);
      else if (!names.has(name)) problems.push(`rule ${rule.id}: ${path} does not export ${name}`);
    }
  }
  return problems;
}

/**
 * @param {string} root repository root
 * @param {Rule[]} rules
 * @param {TestTitle[]} titles
 * @returns {string[]} one line per problem, empty when the map is sound
 */
export function mapProblems(root, rules, titles) {
  const problems = [];
  const known = new Set();
  for (const rule of rules) {
    if (known.has(rule.id)) problems.push(`rule ${rule.id} is listed twice in rules.json`);
    known.add(rule.id);
    problems.push(...entryProblems(rule));
  }
  problems.push(...implProblems(root, rules));
  for (const title of titles) {
    for (const id of title.ids.filter((named) => !known.has(named))) {
      problems.push(`${title.file}:${title.line}: "${title.title}" names ${id}, which is no rule in rules.json`);
    }
  }
  const tested = testsByRule(titles);
  for (const rule of rules) {
    const tests = tested.get(rule.id) ?? [];
    if (rule.gap === undefined && tests.length === 0) {
      problems.push(`rule ${rule.id} has no test: put "${rule.id}" in the title of a test that checks it`);
    }
    if (rule.gap !== undefined && tests.length > 0) {
      const where = tests.map((test) => `${test.file}:${test.line}`).join(', ');
      problems.push(`rule ${rule.id} is marked as a gap but is tested (${where}): remove its "gap" from rules.json`);
    }
  }
  return problems;
}
