import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './repo.js';

/** A dependency arrow: `from` depends on `to` (package folder names under packages/). */
export type Arrow = `${string} --> ${string}`;

interface PackageJson {
  readonly name: string;
  readonly private?: boolean;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
}

/**
 * The arrows between published packages, read from their package.json files: every dependency, peer or optional
 * dependency on another published package of the workspace. Sorted.
 */
export function workspaceArrows(root = REPO_ROOT): { readonly packages: string[]; readonly arrows: Arrow[] } {
  const dir = join(root, 'packages');
  const manifests = readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, 'package.json')))
    .map((name) => ({ name, json: JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8')) as PackageJson }))
    .filter(({ json }) => json.private !== true);
  const folderOf = new Map(manifests.map(({ name, json }) => [json.name, name]));
  const arrows = new Set<Arrow>();
  for (const { name, json } of manifests) {
    const deps = { ...json.dependencies, ...json.peerDependencies, ...json.optionalDependencies };
    for (const dep of Object.keys(deps)) {
      const to = folderOf.get(dep);
      if (to !== undefined) arrows.add(`${name} --> ${to}`);
    }
  }
  return { packages: manifests.map(({ name }) => name).sort(), arrows: [...arrows].sort() };
}

/**
 * The nodes and arrows of the first ```mermaid block of `markdown`. Node ids are package folder names with `_` for
 * `-` (`task_store` is packages/task-store); `a --> b` means a depends on b.
 */
export function diagramArrows(markdown: string): { readonly nodes: string[]; readonly arrows: Arrow[] } {
  const block = /```mermaid\n([\s\S]*?)```/.exec(markdown)?.[1];
  if (block === undefined) throw new Error('no ```mermaid block');
  const id = (raw: string) => raw.replace(/_/g, '-');
  const nodes = new Set<string>();
  const arrows = new Set<Arrow>();
  for (const line of block.split('\n')) {
    const node = /^\s*([a-z][\w]*)\s*\[/.exec(line);
    if (node?.[1] !== undefined) nodes.add(id(node[1]));
    const arrow = /^\s*([a-z][\w]*)(?:\[[^\]]*\])?\s*-->\s*([a-z][\w]*)/.exec(line);
    if (arrow?.[1] !== undefined && arrow[2] !== undefined) {
      arrows.add(`${id(arrow[1])} --> ${id(arrow[2])}`);
      nodes.add(id(arrow[1]));
      nodes.add(id(arrow[2]));
    }
  }
  return { nodes: [...nodes].sort(), arrows: [...arrows].sort() };
}
