// pnpm bench:instructions [--requests=N] [--warmup=N]
// Instructions per HTTP request on the server's main thread, counted by callgrind, for each HTTP server next to its
// baseline: a cost figure that does not move with the machine's load. The same pairs run as the `instructions` case
// of `pnpm bench`; here `--requests`/`--warmup` may override every pair's counts.
import { parseArgs } from 'node:util';
import { countPair, INSTRUCTION_PAIRS } from './cases/instructionsCase.js';
import { loadAverage, machine } from './lib/report.js';

const { values } = parseArgs({ options: { requests: { type: 'string' }, warmup: { type: 'string' } } });

const started = Date.now();
const loadBefore = loadAverage();
const rows = [];
for (const pair of INSTRUCTION_PAIRS) {
  const counts = {
    requests: Number(values.requests ?? pair.counts.requests),
    warmup: Number(values.warmup ?? pair.counts.warmup),
  };
  const { ours, baseline } = await countPair(pair, counts);
  process.stderr.write(`  ${pair.what}: ${Math.round(ours)} vs ${Math.round(baseline)}\n`);
  rows.push([
    pair.what,
    Math.round(ours).toLocaleString('en-US'),
    `${Math.round(baseline).toLocaleString('en-US')} (${pair.baseline})`,
    `${(baseline / ours).toFixed(3)}×`,
    `${counts.requests} after ${counts.warmup}`,
  ]);
}
const { cpu, cores, node } = machine();
console.log(
  [
    '| path | ours, instructions per request | baseline | baseline / ours | requests counted |',
    '| --- | --- | --- | --- | --- |',
    ...rows.map((cells) => `| ${cells.join(' | ')} |`),
    '',
    `${cpu}, ${cores} cores, Node ${node}; load ${loadBefore.join(' ')} → ${loadAverage().join(' ')}; ` +
      `${Math.round((Date.now() - started) / 1000)} s; one connection, the server's main thread (callgrind)`,
  ].join('\n'),
);
