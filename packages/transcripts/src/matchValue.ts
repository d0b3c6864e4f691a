/** Captured values by name, filled into `{{name}}` placeholders. */
export type Vars = ReadonlyMap<string, unknown>;

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const WHOLE_PLACEHOLDER = /^\{\{([A-Za-z0-9_]+)\}\}$/;
const PLACEHOLDER = /\{\{([A-Za-z0-9_]+)\}\}/g;

/**
 * Fills `{{name}}` placeholders in strings and object keys. A string that is exactly one placeholder takes the
 * captured value as it is (any JSON type); placeholders inside a longer string take its text. Throws naming the
 * placeholder when nothing was captured under it.
 */
export function fill(template: unknown, vars: Vars): unknown {
  if (typeof template === 'string') return fillString(template, vars);
  if (Array.isArray(template)) return template.map((item) => fill(item, vars));
  if (isObject(template)) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template)) out[String(fillString(key, vars))] = fill(value, vars);
    return out;
  }
  return template;
}

function fillString(text: string, vars: Vars): unknown {
  const whole = WHOLE_PLACEHOLDER.exec(text);
  if (whole !== null) return lookUp(whole[1] ?? '', vars);
  return text.replace(PLACEHOLDER, (_all, name: string) => String(lookUp(name, vars)));
}

function lookUp(name: string, vars: Vars): unknown {
  if (!vars.has(name)) throw new Error(`nothing captured as {{${name}}}`);
  return vars.get(name);
}

/**
 * Matches `actual` against an expectation (see `MatcherSchema`). Returns undefined on a match, otherwise one line
 * naming the first path that differs and why.
 */
export function matchValue(expected: unknown, actual: unknown, vars: Vars, path = '$'): string | undefined {
  if (typeof expected === 'string') return matchString(expected, actual, vars, path);
  if (isObject(expected) && Array.isArray(expected['<oneOf>'])) {
    const misses = expected['<oneOf>'].map((alternative) => matchValue(alternative, actual, vars, path));
    return misses.some((miss) => miss === undefined) ? undefined : `${path}: none of the alternatives: ${misses[0]}`;
  }
  if (isObject(expected) && typeof expected['<count>'] === 'number') {
    const count = Array.isArray(actual) ? actual.length : isObject(actual) ? Object.keys(actual).length : undefined;
    return count === expected['<count>']
      ? undefined
      : `${path}: expected ${expected['<count>']} entries, got ${brief(actual)}`;
  }
  if (actual === undefined) return `${path}: missing, expected ${brief(expected)}`;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      return `${path}: expected an array of ${expected.length}, got ${brief(actual)}`;
    }
    for (const [index, item] of expected.entries()) {
      const miss = matchValue(item, actual[index], vars, `${path}[${index}]`);
      if (miss !== undefined) return miss;
    }
    return undefined;
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return `${path}: expected an object, got ${brief(actual)}`;
    for (const [rawKey, value] of Object.entries(expected)) {
      const key = String(fillString(rawKey, vars));
      const miss = matchValue(value, Object.hasOwn(actual, key) ? actual[key] : undefined, vars, `${path}.${key}`);
      if (miss !== undefined) return miss;
    }
    return undefined;
  }
  return Object.is(expected, actual) ? undefined : `${path}: expected ${brief(expected)}, got ${brief(actual)}`;
}

function matchString(expected: string, actual: unknown, vars: Vars, path: string): string | undefined {
  switch (expected) {
    case '<any>':
      return undefined;
    case '<present>':
      return actual === undefined ? `${path}: missing` : undefined;
    case '<absent>':
      return actual === undefined ? undefined : `${path}: expected no value, got ${brief(actual)}`;
    case '<string>':
      return typeof actual === 'string' ? undefined : `${path}: expected a string, got ${brief(actual)}`;
    case '<number>':
      return typeof actual === 'number' ? undefined : `${path}: expected a number, got ${brief(actual)}`;
    case '<iso8601>':
      return typeof actual === 'string' && ISO_8601.test(actual)
        ? undefined
        : `${path}: expected an ISO 8601 time, got ${brief(actual)}`;
  }
  let want: unknown;
  try {
    want = fillString(expected, vars);
  } catch (error) {
    return `${path}: ${(error as Error).message}`;
  }
  if (typeof want !== 'string') return matchValue(want, actual, vars, path);
  return want === actual ? undefined : `${path}: expected ${brief(want)}, got ${brief(actual)}`;
}

/** Reads a dot path (`result.taskId`; `$keys[n]` picks the n-th key of an object) from a value. */
export function readPath(value: unknown, path: string): unknown {
  let current = value;
  for (const part of path.split('.')) {
    const keys = /^\$keys\[(\d+)\]$/.exec(part);
    if (keys !== null) current = isObject(current) ? Object.keys(current)[Number(keys[1])] : undefined;
    else current = isObject(current) ? current[part] : undefined;
  }
  return current;
}

/** A plain JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function brief(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
