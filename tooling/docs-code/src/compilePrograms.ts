import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { type DocProgram, docPrograms, programSource } from './markdownPrograms.js';
import { docFiles, PACKAGE_ROOT, REPO_ROOT } from './repo.js';

/** Where the programs are written: inside this package, so `@mcp-tasks/*` imports resolve through its deps. */
export const PROGRAMS_DIR = join(PACKAGE_ROOT, 'dist', 'programs');

/** A program written to disk. */
export interface WrittenProgram extends DocProgram {
  readonly file: string;
  readonly docLines: readonly number[];
}

/** Every program of every doc under docs/; throws when two docs use one program name. */
export function collectPrograms(root = REPO_ROOT): DocProgram[] {
  const programs = docFiles(root).flatMap((doc) => docPrograms(doc, readFileSync(join(root, doc), 'utf8')));
  const seen = new Map<string, string>();
  for (const program of programs) {
    const other = seen.get(program.name);
    if (other !== undefined) throw new Error(`program ${program.name} is named in ${other} and ${program.doc}`);
    seen.set(program.name, program.doc);
  }
  return programs;
}

/** Writes each program to `<dir>/<name>.ts`, replacing what was there. */
export function writePrograms(programs: readonly DocProgram[], dir = PROGRAMS_DIR): WrittenProgram[] {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return programs.map((program) => {
    const { text, docLines } = programSource(program);
    const file = join(dir, `${program.name}.ts`);
    writeFileSync(file, text);
    return { ...program, file, docLines };
  });
}

/**
 * Typechecks the written programs with the repository's strict settings (`tsconfig.programs.json`) and answers
 * one line per error, located in the Markdown file it came from.
 */
export function compilePrograms(programs: readonly WrittenProgram[]): string[] {
  const configPath = join(PACKAGE_ROOT, 'tsconfig.programs.json');
  const parsed = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (parsed === undefined) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram(
    programs.map((written) => written.file),
    parsed.options,
  );
  const byFile = new Map(programs.map((written) => [written.file, written]));
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const written = diagnostic.file === undefined ? undefined : byFile.get(diagnostic.file.fileName);
    if (diagnostic.file === undefined || diagnostic.start === undefined || written === undefined) {
      return `${diagnostic.file?.fileName ?? 'tsc'}: ${message}`;
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const docLine = written.docLines[line] ?? 0;
    return `${written.doc}:${docLine} (program ${written.name}): TS${diagnostic.code} ${message}`;
  });
}
