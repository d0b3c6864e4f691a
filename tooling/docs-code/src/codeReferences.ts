import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { REPO_ROOT } from './repo.js';

/**
 * Code references in docs, so they cannot rot. Convention:
 * - a link to a source file whose text is one backticked name (not a file name) names something declared in it:
 *   [`ToolSupervisor.start`](../packages/server/src/toolSupervisor.ts) (a top-level declaration, optionally with
 *   one member of it; a trailing `()` is allowed);
 * - any other relative link must point at a file or folder that exists;
 * - a backticked repository path (`packages/server/src/toolSupervisor.ts`) must exist.
 */
export interface CodeReference {
  readonly doc: string;
  readonly line: number;
  /** Repository-relative target. */
  readonly target: string;
  /** `Name` or `Name.member`, when the link names a declaration. */
  readonly symbol?: string;
  /** The `#fragment` of a link to a Markdown file: one of its headings. */
  readonly anchor?: string;
}

const LINK = /\[([^\]]*)\]\(([^)\s]+)\)/g;
const SYMBOL = /^`([A-Za-z_$][\w$]*(?:\.[A-Za-z_$#][\w$]*)?)(?:\(\))?`$/;
const PATH = /`((?:packages|apps|tooling|docs)\/[\w./-]+)`/g;

/** The references of one Markdown file (`doc`, repository-relative), outside code blocks. */
export function codeReferences(doc: string, markdown: string): CodeReference[] {
  const references: CodeReference[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, index) => {
    if (/^\s*(`{3,}|~{3,})/.test(text)) fenced = !fenced;
    if (fenced) return;
    const line = index + 1;
    for (const match of text.matchAll(LINK)) {
      const [, label = '', href = ''] = match;
      if (/^[a-z]+:/i.test(href) || href.startsWith('#')) continue;
      const [path = '', fragment] = href.split('#');
      const target = normalize(join(dirname(doc), path))
        .split('\\')
        .join('/')
        .replace(/\/$/, '');
      // A label that is a file name (`transport.ts`) links the file, not a declaration.
      const symbol = /\.(?:ts|js|json|md)`$/.test(label.trim()) ? undefined : SYMBOL.exec(label.trim())?.[1];
      references.push({
        doc,
        line,
        target,
        ...(symbol !== undefined && target.endsWith('.ts') ? { symbol } : {}),
        ...(fragment !== undefined && fragment !== '' && target.endsWith('.md') ? { anchor: fragment } : {}),
      });
    }
    for (const match of text.matchAll(PATH)) {
      references.push({ doc, line, target: (match[1] ?? '').replace(/\/$/, '') });
    }
  });
  return references;
}

/** Top-level declarations of a source file and, per declaration, the names of its members. */
export function declarations(file: string): ReadonlyMap<string, ReadonlySet<string>> {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = new Map<string, Set<string>>();
  const members = (nodes: ts.NodeArray<ts.Node> | undefined): Set<string> => {
    const names = new Set<string>();
    for (const node of nodes ?? []) {
      const name = (node as { name?: ts.Node }).name;
      if (name !== undefined && (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name))) {
        names.add(name.text);
      }
      if (ts.isConstructorDeclaration(node)) names.add('constructor');
    }
    return names;
  };
  for (const statement of source.statements) {
    if (ts.isClassDeclaration(statement) || ts.isInterfaceDeclaration(statement)) {
      if (statement.name !== undefined) found.set(statement.name.text, members(statement.members));
    } else if (ts.isFunctionDeclaration(statement) || ts.isEnumDeclaration(statement)) {
      if (statement.name !== undefined) found.set(statement.name.text, new Set());
    } else if (ts.isTypeAliasDeclaration(statement)) {
      const type = statement.type;
      found.set(statement.name.text, ts.isTypeLiteralNode(type) ? members(type.members) : new Set());
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name)) continue;
        const init = declaration.initializer;
        const object = init !== undefined && ts.isObjectLiteralExpression(init) ? init.properties : undefined;
        found.set(declaration.name.text, members(object));
      }
    }
  }
  return found;
}

/**
 * Targets other parts of the build produce, which a checkout may not hold: the API reference is generated (and
 * gitignored) by `pnpm api-docs`.
 */
export const PRODUCED_ELSEWHERE: readonly string[] = ['docs/api'];

/** What is wrong with `reference`, or undefined when it holds. */
export function checkReference(reference: CodeReference, root = REPO_ROOT): string | undefined {
  const where = `${reference.doc}:${reference.line}`;
  const path = join(root, reference.target);
  if (relative(root, path).startsWith('..')) return `${where}: ${reference.target} is outside the repository`;
  if (!existsSync(path)) {
    return PRODUCED_ELSEWHERE.includes(reference.target) ? undefined : `${where}: ${reference.target} does not exist`;
  }
  if (reference.anchor !== undefined) {
    const anchors = headingAnchors(readFileSync(path, 'utf8'));
    return anchors.has(reference.anchor)
      ? undefined
      : `${where}: ${reference.target} has no heading #${reference.anchor}`;
  }
  if (reference.symbol === undefined) return undefined;
  const [name = '', member] = reference.symbol.split('.');
  const members = declarations(path).get(name);
  if (members === undefined) return `${where}: ${reference.target} declares no ${name}`;
  if (member !== undefined && !members.has(member)) return `${where}: ${name} in ${reference.target} has no ${member}`;
  return undefined;
}

/** The anchors GitHub gives the headings of a Markdown file (lowercase, punctuation dropped, spaces to `-`). */
export function headingAnchors(markdown: string): ReadonlySet<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(`{3,}|~{3,})/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading?.[1] === undefined) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}
