/**
 * The README convention for export lists. A package README has one `## Exports` section. Names listed before any
 * `###` heading belong to the package root; a `### \`@scope/pkg/sub\`` heading starts the list of that subpath
 * export (`### \`@scope/pkg\`` names the root explicitly). A bullet starts with the exported names it documents,
 * each in backticks, separated by commas: ``- `McpServer`: the runtime`` or ``- `Task`, `TaskSchema`: a task``.
 * Other lines (prose, indented sub-bullets, bullets that start otherwise) are ignored, so the section can still
 * explain things.
 */

/** Specifier (`@scope/pkg`, `@scope/pkg/sub`) -> names listed for it, in README order. */
export type ReadmeExports = Map<string, string[]>;

const BULLET = /^[-*] ((?:`[A-Za-z_$][\w$]*`)(?:, `[A-Za-z_$][\w$]*`)*)/;
const ENTRY_HEADING = /^### `([^`]+)`\s*$/;

/** Reads the `## Exports` section of `readme`; `rootSpecifier` is the package name. Throws when there is none. */
export function readmeExports(readme: string, rootSpecifier: string): ReadmeExports {
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => line.trim() === '## Exports');
  if (start === -1) throw new Error('no "## Exports" section');
  const out: ReadmeExports = new Map([[rootSpecifier, []]]);
  let current = rootSpecifier;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    const heading = ENTRY_HEADING.exec(line);
    if (heading?.[1] !== undefined) {
      current = heading[1];
      if (!out.has(current)) out.set(current, []);
      continue;
    }
    const names = BULLET.exec(line)?.[1];
    if (names !== undefined) out.get(current)?.push(...names.split(', ').map((name) => name.slice(1, -1)));
  }
  return out;
}

/** A readable list of what differs between a README's names and the source's, or undefined when they agree. */
export function describeDifference(listed: readonly string[], exported: readonly string[]): string | undefined {
  const missing = exported.filter((name) => !listed.includes(name));
  const extra = listed.filter((name) => !exported.includes(name));
  const repeated = listed.filter((name, index) => listed.indexOf(name) !== index);
  const parts = [
    missing.length > 0 ? `missing from the README: ${missing.join(', ')}` : undefined,
    extra.length > 0 ? `listed in the README but not exported: ${extra.join(', ')}` : undefined,
    repeated.length > 0 ? `listed twice: ${repeated.join(', ')}` : undefined,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? undefined : parts.join('; ');
}
