import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { formatRate, formatSummary } from './stats.js';

const FORMATS = {
  rate: formatRate,
  ms: (value) => (value < 10 ? value.toFixed(2) : value.toFixed(0)),
  bytes: (value) => value.toFixed(0),
  count: (value) => value.toLocaleString('en-US'),
  ratio: (value) => `${value.toFixed(2)}×`,
};

/** What the numbers were measured on; drift between machines is why every goal is a same-run ratio. */
export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: loadAverage(),
  };
}

/** The machine's 1, 5 and 15 minute load averages (runnable processes; this machine's core count is the ceiling). */
export function loadAverage() {
  return os.loadavg().map((value) => Number(value.toFixed(2)));
}

/**
 * The figure a goal is read on: ours alone (`on: 'ours'`), the CPU ratio (`by: 'cpu'`: baseline CPU per operation
 * over ours), else the throughput ratio when there is a baseline.
 */
function goalValue(row) {
  if (row.goal.by === 'cpu') return row.cpuRatio?.median;
  return row.goal.on === 'ours' || row.ratio === undefined ? row.ours.median : row.ratio.median;
}

/**
 * Whether a row met its goal; undefined when it has none, or when its baseline fell during the row (`baselineFell`:
 * the ratio compares with a baseline that no longer measured what it did at first). Goals apply to the ratio when
 * there is a baseline.
 */
export function goalMet(row) {
  if (row.goal === undefined || (row.baselineFell !== undefined && row.goal.on !== 'ours')) return undefined;
  const value = goalValue(row);
  if (row.goal.min !== undefined && !(value >= row.goal.min)) return false;
  if (row.goal.max !== undefined && !(value <= row.goal.max)) return false;
  if (row.goal.check !== undefined && !row.goal.check) return false;
  return true;
}

function metText(row, met) {
  if (met !== undefined) return met ? 'yes' : '**no**';
  const fell = row.baselineFell;
  return fell === undefined || row.goal === undefined
    ? ''
    : `**void**: the baseline fell from ${FORMATS.rate(fell.from)} to ${FORMATS.rate(fell.to)}`;
}

function goalText(goal) {
  if (goal === undefined) return '—';
  if (goal.text !== undefined) return goal.text;
  const on = goal.on === 'ours' ? '' : goal.by === 'cpu' ? '× by CPU' : '×';
  if (goal.min !== undefined) return `≥ ${goal.min}${on}`;
  return `≤ ${goal.max}${on}`;
}

function cell(summary, format) {
  if (summary === undefined) return '—';
  const formatter = FORMATS[format ?? 'rate'];
  // A single measurement has no spread to show.
  return summary.values.length === 1 ? formatter(summary.median) : formatSummary(summary, formatter);
}

function loadText(load) {
  return load === undefined ? '—' : `${load.before[0].toFixed(2)} → ${load.after[0].toFixed(2)}`;
}

/** How many cores each side kept busy, when both are known: throughput and CPU per operation differ by this. */
function coresText(cores) {
  if (cores?.ours === undefined || cores.baseline === undefined) return '';
  return ` (cores ${cores.ours.median.toFixed(2)} / ${cores.baseline.median.toFixed(2)})`;
}

/** The markdown table: median (min–max) of each side, the ratio, the goal and whether it was met. */
export function markdownTable(rows) {
  const lines = [
    '| case | variant | ours | baseline | ratio | goal | met | server CPU µs/op ours / baseline | ratio by CPU | load 1 min before → after | notes |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const row of rows) {
    const met = goalMet(row);
    const cpu = row.cpuPerOp?.ours
      ? `${row.cpuPerOp.ours.median.toFixed(0)} / ${row.cpuPerOp.baseline?.median.toFixed(0) ?? '—'}${coresText(row.cores)}`
      : '—';
    const unit = row.unit ? ` ${row.unit}` : '';
    lines.push(
      `| ${row.title} | ${row.variant} | ${cell(row.ours, row.format)}${unit} | ${cell(row.baseline, row.format)} | ${
        row.ratio ? cell(row.ratio, 'ratio') : '—'
      } | ${goalText(row.goal)} | ${metText(row, met)} | ${cpu} | ${
        row.cpuRatio ? cell(row.cpuRatio, 'ratio') : '—'
      } | ${loadText(row.load)} | ${row.note ?? ''} |`,
    );
  }
  return lines.join('\n');
}

/** Writes `bench-results/<stamp>.json`, `latest.json` and `latest.md` under `dir`. */
export async function writeResults(dir, report) {
  await mkdir(dir, { recursive: true });
  const stamp = report.startedAt.replace(/[:.]/g, '-');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  const md = `${report.markdown}\n`;
  await Promise.all([
    writeFile(new URL(`${stamp}.json`, dir), json),
    writeFile(new URL('latest.json', dir), json),
    writeFile(new URL(`${stamp}.md`, dir), md),
    writeFile(new URL('latest.md', dir), md),
  ]);
  return new URL(`${stamp}.json`, dir);
}
