/**
 * The TypeScript blocks of a Markdown file, grouped into programs.
 *
 * Convention: every ```ts block is compiled. A block directly preceded by `<!-- program: NAME -->` (the marker is
 * the last non-blank line before the fence) belongs to program NAME; the blocks of one program are concatenated in
 * the order they appear, so a guide can explain a program piece by piece. `<!-- program: NAME run -->` on any of
 * its blocks also runs the program (imported as an ES module: top-level await, assertions, everything closed). A
 * block without a marker is a program of its own, compiled only.
 */

/** One ```ts block. */
export interface CodeBlock {
  /** 1-based line of the block's first code line in its Markdown file. */
  readonly line: number;
  readonly code: string;
  /** The program named by its marker, if any. */
  readonly program?: string;
  readonly run: boolean;
  readonly suite?: boolean;
}

/** One program: the blocks that form one module. */
export interface DocProgram {
  readonly name: string;
  /** Repository-relative path of the Markdown file. */
  readonly doc: string;
  readonly run: boolean;
  /** Registers vitest suites: imported while tests are collected. */
  readonly suite?: boolean;
  readonly blocks: readonly CodeBlock[];
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;
const MARKER = /^<!--\s*program:\s*([a-z0-9][a-z0-9-]*)((?:\s+[a-z]+)*)\s*-->$/;
const TS_LANGS = new Set(['ts', 'typescript']);

/** The ```ts blocks of `markdown`, with their markers. Throws on a marker that does not parse or names no block. */
export function codeBlocks(markdown: string): CodeBlock[] {
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let marker: { name: string; run: boolean; suite: boolean; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const trimmed = line.trim();
    if (trimmed.startsWith('<!--') && trimmed.includes('program:')) {
      const match = MARKER.exec(trimmed);
      if (match === null) throw new Error(`line ${i + 1}: malformed marker ${trimmed}`);
      const flags = (match[2] ?? '').trim().split(/\s+/).filter(Boolean);
      const unknown = flags.filter((flag) => flag !== 'run' && flag !== 'suite');
      if (unknown.length > 0) throw new Error(`line ${i + 1}: unknown marker flag ${unknown.join(', ')}`);
      marker = { name: match[1] ?? '', run: flags.includes('run'), suite: flags.includes('suite'), line: i + 1 };
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence === null) {
      if (trimmed !== '' && marker !== undefined)
        throw new Error(`line ${marker.line}: marker not followed by a block`);
      continue;
    }
    const [, indent = '', ticks = '```', lang = ''] = fence;
    const end = lines.findIndex((other, j) => j > i && other.trim().startsWith(ticks) && other.trim() === ticks);
    if (end === -1) throw new Error(`line ${i + 1}: unclosed code block`);
    if (TS_LANGS.has(lang)) {
      const body = lines.slice(i + 1, end).map((text) => (text.startsWith(indent) ? text.slice(indent.length) : text));
      blocks.push({
        line: i + 2,
        code: body.join('\n'),
        run: marker?.run ?? false,
        ...(marker?.suite === true ? { suite: true } : {}),
        ...(marker === undefined ? {} : { program: marker.name }),
      });
    } else if (marker !== undefined) {
      throw new Error(`line ${marker.line}: a program marker must precede a \`\`\`ts block`);
    }
    marker = undefined;
    i = end;
  }
  if (marker !== undefined) throw new Error(`line ${marker.line}: marker not followed by a block`);
  return blocks;
}

/** The programs of one Markdown file (`doc` is its repository-relative path). */
export function docPrograms(doc: string, markdown: string): DocProgram[] {
  const slug = doc
    .replace(/^docs\//, '')
    .replace(/\.md$/, '')
    .replace(/[^a-z0-9]+/gi, '-')
    .toLowerCase();
  const named = new Map<string, CodeBlock[]>();
  const programs: DocProgram[] = [];
  let blocks: CodeBlock[];
  try {
    blocks = codeBlocks(markdown);
  } catch (error) {
    throw new Error(`${doc}: ${(error as Error).message}`);
  }
  for (const block of blocks) {
    if (block.program === undefined) {
      programs.push({ name: `${slug}-line-${block.line}`, doc, run: false, blocks: [block] });
      continue;
    }
    const group = named.get(block.program);
    if (group === undefined) named.set(block.program, [block]);
    else group.push(block);
  }
  for (const [name, group] of named) {
    const suite = group.some((block) => block.suite === true);
    programs.push({ name, doc, run: group.some((block) => block.run), ...(suite ? { suite } : {}), blocks: group });
  }
  return programs;
}

/** The module text of a program, and for each of its lines the Markdown line it came from (0 for added lines). */
export function programSource(program: DocProgram): { readonly text: string; readonly docLines: readonly number[] } {
  const out: string[] = [`// Generated from ${program.doc} by @mcp-tasks/docs-code: edit the guide, not this file.`];
  const docLines: number[] = [0];
  for (const block of program.blocks) {
    out.push(`// ${program.doc}:${block.line}`);
    docLines.push(0);
    block.code.split('\n').forEach((text, index) => {
      out.push(text);
      docLines.push(block.line + index);
    });
  }
  // A module even when no block imports or exports anything (top-level await needs one).
  out.push('export {};');
  docLines.push(0);
  return { text: `${out.join('\n')}\n`, docLines };
}
