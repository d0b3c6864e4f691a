// pnpm bench [--quick] [--only=a,b] [--reps=N] [--seconds=S] [--cpu-prof] [--out=DIR]
// Runs every case side by side with its baseline, prints a markdown table and writes bench-results/*.json.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { durableCase } from './cases/durableCase.js';
import { expressTasksGet, fetchTasksGet, greetCallCase, httpTasksGet, sessionCallCase } from './cases/httpCases.js';
import { instructionsCase } from './cases/instructionsCase.js';
import { latencyCase } from './cases/latencyCase.js';
import { memoryCase } from './cases/memoryCase.js';
import { stdioTasksGet, wsTasksGet } from './cases/messageCases.js';
import { peerFastmcpCase } from './cases/peerFastmcpCase.js';
import { postgresCase } from './cases/postgresCase.js';
import { scaleCase } from './cases/scaleCase.js';
import { storeCase } from './cases/storeCase.js';
import { goalMet, loadAverage, machine, markdownTable, writeResults } from './lib/report.js';

const CASES = {
  'http-tasks-get': httpTasksGet,
  'fetch-tasks-get': fetchTasksGet,
  'express-tasks-get': expressTasksGet,
  'http-greet': greetCallCase,
  'http-session': sessionCallCase,
  'ws-tasks-get': wsTasksGet,
  'stdio-tasks-get': stdioTasksGet,
  instructions: instructionsCase,
  'task-store': storeCase,
  scale: scaleCase,
  latency: latencyCase,
  memory: memoryCase,
  postgres: postgresCase,
  durable: durableCase,
  'peer-fastmcp': peerFastmcpCase,
};

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    reps: { type: 'string' },
    seconds: { type: 'string' },
    out: { type: 'string' },
    'cpu-prof': { type: 'boolean', default: false },
  },
});

const quick = values.quick;
const outDir = values.out
  ? pathToFileURL(`${resolve(values.out)}/`)
  : new URL('../../../bench-results/', import.meta.url);
const ctx = {
  // --cpu-prof: our server processes write V8 CPU profiles (open in Chrome DevTools or speedscope).
  oursExecArgv: values['cpu-prof'] ? ['--cpu-prof', `--cpu-prof-dir=${new URL('profiles/', outDir).pathname}`] : [],
  quick,
  // --quick proves the harness works (one short run per case). A full run takes the median of 5 paired runs: on a
  // shared 2-core machine more short runs give a steadier median than fewer long ones.
  reps: Number(values.reps ?? (quick ? 1 : 5)),
  seconds: Number(values.seconds ?? (quick ? 0.5 : 2)),
  // Warm-up runs of `warmSeconds` until a side stops getting faster, at most `maxWarmUps` (lib/pairedRuns.js).
  warmSeconds: quick ? 0.2 : 1,
  maxWarmUps: quick ? 1 : 10,
  progress: (row) => {
    const ratio = `${row.ratio ? ` ratio ${row.ratio.median.toFixed(2)}` : ''}${row.cpuRatio ? ` by CPU ${row.cpuRatio.median.toFixed(2)}` : ''}`;
    const warm = row.warmUpRuns
      ? ` (warm-up runs: ours ${row.warmUpRuns.ours}, baseline ${row.warmUpRuns.baseline})`
      : '';
    process.stderr.write(`  ${row.case} ${row.variant}: ours ${row.ours.median.toFixed(1)}${ratio}${warm}\n`);
  },
};
const selected = values.only ? values.only.split(',') : Object.keys(CASES);
for (const name of selected)
  if (!(name in CASES)) throw new Error(`unknown case ${name}; known: ${Object.keys(CASES)}`);

const startedAt = new Date().toISOString();
const before = machine();
const started = performance.now();
const rows = [];
const failures = [];
for (const name of selected) {
  process.stderr.write(`${name}\n`);
  try {
    // The machine's load around each case: on a shared machine it tells which figures to trust.
    const loadBefore = loadAverage();
    const caseStarted = performance.now();
    const caseRows = await CASES[name](ctx);
    const load = { before: loadBefore, after: loadAverage() };
    rows.push(...caseRows.map((row) => ({ ...row, load })));
    process.stderr.write(`  ${name}: ${((performance.now() - caseStarted) / 1000).toFixed(1)} s\n`);
  } catch (error) {
    failures.push({ case: name, error: String(error?.stack ?? error) });
    process.stderr.write(`  FAILED: ${error?.stack ?? error}\n`);
  }
}
const seconds = (performance.now() - started) / 1000;
const markdown = markdownTable(rows);
const command = `pnpm bench${process.argv.slice(2).length ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const report = {
  startedAt,
  command,
  quick,
  reps: ctx.reps,
  secondsPerRun: ctx.seconds,
  machine: { ...before, loadAverageAtEnd: machine().loadAverage },
  durationSeconds: Number(seconds.toFixed(1)),
  rows: rows.map((row) => ({ ...row, met: goalMet(row) })),
  failures,
  markdown,
};
const file = await writeResults(outDir, report);
const m = report.machine;
process.stdout.write(
  `${markdown}\n\n${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}; load average ${m.loadAverage.join(
    ' ',
  )} at start, ${m.loadAverageAtEnd.join(' ')} at end; ${report.durationSeconds} s; ${command}\n` +
    `median (min–max) of ${ctx.reps} runs of ${ctx.seconds} s each, after warming each side up in ${ctx.warmSeconds} s ` +
    `runs until it stopped getting faster (at most ${ctx.maxWarmUps}); results in ${file.pathname}\n`,
);
// --quick proves the harness works (CI, no thresholds); a case that crashed is a failure either way.
process.exitCode = failures.length > 0 ? 1 : 0;
