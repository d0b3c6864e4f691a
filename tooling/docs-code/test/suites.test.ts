import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { collectPrograms, PROGRAMS_DIR, writePrograms } from '../src/compilePrograms.js';

// Programs marked `suite` register vitest suites (a contract suite run on the guide's own code): they are imported
// here, while this file's tests are collected. Every program is written (to a folder of this file's own, since
// test files run in parallel) so a suite can import the program it tests.
const written = writePrograms(collectPrograms(), join(PROGRAMS_DIR, '..', 'suite-programs'));
const suites = written.filter((program) => program.suite === true);
if (suites.length === 0) throw new Error('no program of docs/ is marked suite');
for (const program of suites) await import(pathToFileURL(program.file).href);
