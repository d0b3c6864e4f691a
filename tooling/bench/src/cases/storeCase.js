import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { summarize } from '../lib/stats.js';

// The task-store package owns its micro-benchmark; this case runs it (never a second copy) and reads its report.
const STORE_BENCH = fileURLToPath(
  new URL('../../node_modules/@mcp-tasks/task-store/bench/storeBench.js', import.meta.url),
);

/** Runs the store benchmark once in its own process (`quick`: 0.5 s per figure); resolves with its stdout. */
function runStoreBench(quick) {
  return new Promise((resolve, reject) => {
    const args = ['--expose-gc', STORE_BENCH, ...(quick ? ['--quick'] : [])];
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`storeBench exited with ${code}`))));
  });
}

const LINES = {
  gets: /^get\s+([\d,]+) \/s wall/m,
  swaps: /^compareAndSwap\s+([\d,]+) \/s wall/m,
  lifecycles: /^create → complete\s+([\d,]+) \/s wall/m,
  inputLifecycles: /^create → input round → complete\s+([\d,]+) \/s wall/m,
  heapWorking: /^heap per working task \(100,000 live\)\s+([\d,]+) bytes/m,
  heapCompleted: /^heap per completed task \(small result\)\s+([\d,]+) bytes/m,
};

function parse(out) {
  const values = {};
  for (const [key, pattern] of Object.entries(LINES)) {
    const match = pattern.exec(out);
    if (match === null) throw new Error(`storeBench output lacks ${key}:\n${out}`);
    values[key] = Number(match[1].replaceAll(',', ''));
  }
  return values;
}

/**
 * InMemoryTaskStore: gets/s, CAS updates/s, lifecycles/s and heap bytes per task at 100,000 tasks. At most 3 runs:
 * the store benchmark takes ~18 s per run (~6 s with `--quick`, which measures each throughput for 0.5 s, not 3 s).
 */
export async function storeCase(ctx) {
  const runs = [];
  for (let rep = 0; rep < Math.min(ctx.reps, 3); rep++) runs.push(parse(await runStoreBench(ctx.quick)));
  const of = (key) => summarize(runs.map((run) => run[key]));
  const base = { case: 'task-store', title: 'task store (InMemoryTaskStore)' };
  const rows = [
    { ...base, variant: 'get', unit: '/s', ours: of('gets'), goal: { on: 'ours', min: 1_000_000, text: '≥ 1M/s' } },
    {
      ...base,
      variant: 'CAS update',
      unit: '/s',
      ours: of('swaps'),
      goal: { on: 'ours', min: 300_000, text: '≥ 300k/s' },
    },
    { ...base, variant: 'create → complete', unit: '/s', ours: of('lifecycles') },
    { ...base, variant: 'create → input round → complete', unit: '/s', ours: of('inputLifecycles') },
    {
      ...base,
      variant: 'heap bytes per working task (100,000 live)',
      format: 'bytes',
      ours: of('heapWorking'),
      goal: { on: 'ours', max: 1024, text: '≤ 1 KiB' },
    },
    { ...base, variant: 'heap bytes per completed task', format: 'bytes', ours: of('heapCompleted') },
  ];
  for (const row of rows) ctx.progress(row);
  return rows;
}
