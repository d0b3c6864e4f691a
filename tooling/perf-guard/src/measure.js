// Runs the workload under callgrind and turns its dump files into instructions per operation.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { NODE_FLAGS, PLAN, WARMUP } from './config.js';

const run = promisify(execFile);
const WORKLOAD = fileURLToPath(new URL('./workload.js', import.meta.url));
export const VALGRIND = process.env.PERF_GUARD_VALGRIND ?? 'valgrind';

/** `valgrind --version`, or undefined when valgrind is not installed. */
export async function valgrindVersion() {
  try {
    const { stdout } = await run(VALGRIND, ['--version']);
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/** The main thread's instruction total of one callgrind dump file. */
function totalOf(text, file) {
  const match = /^totals:\s+(\d+)/m.exec(text);
  if (match === null) throw new Error(`no totals line in ${file}`);
  return Number(match[1]);
}

/** The main thread's dump parts (`<out>.<part>-01`) in order, as instruction totals. */
async function readParts(dir) {
  const parts = (await readdir(dir))
    .map((name) => ({ name, match: /^out\.(\d+)-01$/.exec(name) }))
    .filter(({ match }) => match !== null)
    .map(({ name, match }) => ({ name, part: Number(match[1]) }))
    .sort((a, b) => a.part - b.part);
  return Promise.all(parts.map(async ({ name }) => totalOf(await readFile(join(dir, name), 'utf8'), name)));
}

/**
 * Measures steps in one process under callgrind. A step is `{ name, count, extraEvery? }`: a fresh instance of
 * path `name`, warmed up, then two measured segments of `count` operations (`extraEvery` k > 0 repeats every k-th
 * one). Resolves with, per step in order, the instructions of its two segments and their mean per operation.
 */
export async function measureSteps(steps) {
  const dir = await mkdtemp(join(tmpdir(), 'perf-guard-'));
  try {
    const args = [
      '--tool=callgrind',
      '--separate-threads=yes',
      '--dump-before=getppid',
      `--callgrind-out-file=${join(dir, 'out')}`,
      process.execPath,
      ...NODE_FLAGS,
      WORKLOAD,
      String(WARMUP),
      ...steps.map(({ name, count, extraEvery = 0 }) => `${name}:${count}:${extraEvery}`),
    ];
    try {
      await run(VALGRIND, args, { maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      throw new Error(`the workload failed under callgrind: ${error.stderr?.slice(-2000) ?? error.message}`);
    }
    const totals = await readParts(dir);
    // Each step leaves four dumps: set-up, warm-up and a full GC; segment one; a full GC; segment two.
    if (totals.length !== 4 * steps.length) {
      throw new Error(`expected ${4 * steps.length} callgrind dumps, found ${totals.length}`);
    }
    return steps.map(({ count }, index) => {
      const segments = [totals[4 * index + 1], totals[4 * index + 3]];
      return { count, segments, perOp: Math.round((segments[0] + segments[1]) / (2 * count)) };
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Measures every path of `plan` (name → operations per segment) in one process: name → result. */
export async function measure(plan = PLAN) {
  const names = Object.keys(plan);
  const results = await measureSteps(names.map((name) => ({ name, count: plan[name] })));
  return Object.fromEntries(names.map((name, index) => [name, results[index]]));
}
