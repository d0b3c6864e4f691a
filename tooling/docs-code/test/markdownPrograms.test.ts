import { describe, expect, it } from 'vitest';
import { codeBlocks, docPrograms, programSource } from '../src/markdownPrograms.js';

const doc = [
  '# Guide',
  '',
  '<!-- program: greet run -->',
  '```ts',
  "import { McpServer } from '@mcp-tasks/server';",
  '```',
  '',
  'Some prose.',
  '',
  '```sh',
  'pnpm add x',
  '```',
  '',
  '<!-- program: greet -->',
  '',
  '```ts',
  'const server = 1;',
  '```',
  '',
  '```ts',
  'const alone = 2;',
  '```',
].join('\n');

describe('markdown programs', () => {
  it('finds ts blocks with their first code line and markers', () => {
    expect(codeBlocks(doc)).toEqual([
      { line: 5, code: "import { McpServer } from '@mcp-tasks/server';", program: 'greet', run: true },
      { line: 17, code: 'const server = 1;', program: 'greet', run: false },
      { line: 21, code: 'const alone = 2;', run: false },
    ]);
  });

  it('groups the blocks of one program in order; an unmarked block is a program of its own', () => {
    const programs = docPrograms('docs/guides/greet.md', doc);
    expect(programs.map(({ name, run, blocks }) => [name, run, blocks.length])).toEqual([
      ['guides-greet-line-21', false, 1],
      ['greet', true, 2],
    ]);
  });

  it('maps each generated line back to its Markdown line', () => {
    const greet = docPrograms('docs/guides/greet.md', doc).find((program) => program.name === 'greet');
    if (greet === undefined) throw new Error('no program');
    const { text, docLines } = programSource(greet);
    const lines = text.split('\n');
    expect(lines[docLines.indexOf(17)]).toBe('const server = 1;');
    expect(lines[docLines.indexOf(5)]).toContain('McpServer');
  });

  it('refuses malformed markers, unknown flags and markers before other blocks', () => {
    expect(() => codeBlocks('<!-- program: Bad Name -->\n```ts\nx\n```')).toThrow(/malformed marker/);
    expect(() => codeBlocks('<!-- program: a fast -->\n```ts\nx\n```')).toThrow(/unknown marker flag fast/);
    expect(() => codeBlocks('<!-- program: a -->\n```sh\nx\n```')).toThrow(/must precede/);
    expect(() => codeBlocks('<!-- program: a -->\ntext\n```ts\nx\n```')).toThrow(/not followed by a block/);
    expect(() => codeBlocks('```ts\nx\n')).toThrow(/unclosed/);
  });
});
