// pnpm perf-guard [--update]: measures the hot paths under callgrind and compares them with baseline.json.
import { BASELINE_FILE, baselineOf, readBaseline, writeBaseline } from './baseline.js';
import { compare, report } from './compare.js';
import { measure, valgrindVersion } from './measure.js';

const update = process.argv.includes('--update');
const valgrind = await valgrindVersion();
if (valgrind === undefined) {
  console.error('perf-guard: valgrind is not installed (apt-get install valgrind); it counts the instructions.');
  process.exit(1);
}
const environment = { node: process.version, valgrind };
const started = performance.now();
const measured = await measure();
const seconds = ((performance.now() - started) / 1000).toFixed(0);

if (update) {
  await writeBaseline(baselineOf(measured, environment));
  for (const [name, result] of Object.entries(measured)) console.log(`${name}: ${result.perOp} instructions/op`);
  console.log(`perf-guard: wrote ${BASELINE_FILE} (${seconds} s); commit it.`);
  process.exit(0);
}
const baseline = await readBaseline();
if (baseline === undefined) {
  console.error('perf-guard: no baseline.json; run `pnpm perf-guard --update` and commit it.');
  process.exit(1);
}
const verdict = compare(baseline, measured);
for (const line of report(verdict, { baseline, environment })) console.log(line);
console.log(`perf-guard: ${verdict.failed ? 'FAILED' : 'passed'} in ${seconds} s`);
process.exit(verdict.failed ? 1 : 0);
