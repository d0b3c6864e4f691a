// Compares measured instructions per operation with the baseline and words the verdict.
import { IMPROVEMENT_HINT, REFERENCES, SEGMENT_AGREEMENT, TOLERANCE } from './config.js';

/** How far apart a result's two segments are, relative to the smaller. */
function spreadOf({ segments: [first, second] }) {
  return Math.abs(first - second) / Math.min(first, second);
}

/**
 * One row per measured path: `fail` when measured > baseline × (1 + tolerance), `improved` when measured <
 * baseline × (1 − hint), else `ok`; a measured path missing from the baseline is `new` (fails: record it), a
 * path whose two segments disagree by more than `agreement` is `unsteady` (fails: the method no longer holds).
 * A path with a reference (`references`, measured in the same run) is judged on its cost beyond the reference, in
 * the run and in the baseline alike, and is unsteady when either path is; the reference's own row is `reference`
 * (shown, never judged).
 */
export function compare(
  baseline,
  measured,
  { tolerance = TOLERANCE, hint = IMPROVEMENT_HINT, agreement = SEGMENT_AGREEMENT, references = REFERENCES } = {},
) {
  const referenced = new Set(Object.values(references));
  const baseOf = (name) => baseline.paths?.[name]?.instructionsPerOp;
  const rows = [];
  for (const [name, result] of Object.entries(measured)) {
    const ref = measured[references[name]] === undefined ? undefined : references[name];
    const spread = Math.max(spreadOf(result), ref === undefined ? 0 : spreadOf(measured[ref]));
    const perOp = ref === undefined ? result.perOp : result.perOp - measured[ref].perOp;
    const base =
      ref === undefined || baseOf(name) === undefined || baseOf(ref) === undefined
        ? baseOf(name)
        : baseOf(name) - baseOf(ref);
    let verdict;
    if (spread > agreement) verdict = 'unsteady';
    else if (referenced.has(name)) verdict = 'reference';
    else if (base === undefined) verdict = 'new';
    else if (perOp > base * (1 + tolerance)) verdict = 'fail';
    else if (perOp < base * (1 - hint)) verdict = 'improved';
    else verdict = 'ok';
    rows.push({
      name: ref === undefined ? name : `${name} − ${ref}`,
      baseline: base,
      measured: perOp,
      ratio: base === undefined ? undefined : perOp / base,
      spread,
      verdict,
    });
  }
  return { rows, failed: rows.some((row) => ['fail', 'new', 'unsteady'].includes(row.verdict)) };
}

const fmt = (n) => (n === undefined ? '—' : Math.round(n).toLocaleString('en-US'));

/** Lines for the console: a table, then what to do about each failure or improvement. */
export function report({ rows }, { baseline, environment, tolerance = TOLERANCE }) {
  const head = `${'path'.padEnd(28)} ${'baseline'.padStart(9)} ${'measured'.padStart(9)}   ratio   spread  verdict`;
  const lines = [head];
  for (const row of rows) {
    const ratio = row.ratio === undefined ? '—' : `${row.ratio.toFixed(3)}×`;
    const spread = `${(row.spread * 100).toFixed(2)} %`;
    lines.push(
      `${row.name.padEnd(28)} ${fmt(row.baseline).padStart(9)} ${fmt(row.measured).padStart(9)} ${ratio.padStart(7)} ${spread.padStart(8)}  ${row.verdict}`,
    );
  }
  // The spread shows how close a path came to `unsteady` (its two segments apart by more than the agreement limit).
  lines.push('(instructions per operation, counted by callgrind; spread: how far apart the two segments were)');
  const update = 'pnpm perf-guard --update';
  for (const row of rows) {
    if (row.verdict === 'fail') {
      lines.push(
        `FAIL ${row.name}: ${fmt(row.measured)} instructions per operation against a baseline of ${fmt(row.baseline)} ` +
          `(${row.ratio.toFixed(3)}×, more than +${Math.round(tolerance * 100)} %). Find the cost (callgrind or ` +
          `--cpu-prof, see tooling/perf-guard/README.md); if the increase is intended, run \`${update}\` and commit ` +
          'baseline.json with the change, saying why.',
      );
    } else if (row.verdict === 'new') {
      lines.push(`FAIL ${row.name}: not in the baseline; run \`${update}\` and commit baseline.json.`);
    } else if (row.verdict === 'unsteady') {
      lines.push(
        `FAIL ${row.name}: its two measured segments differ by ${(row.spread * 100).toFixed(1)} %, so the path is ` +
          'not in a steady state (a pool refill, a cache or a GC that lands in one segment only); see the README.',
      );
    } else if (row.verdict === 'improved') {
      lines.push(
        `${row.name} is ${((1 - row.ratio) * 100).toFixed(1)} % cheaper than its baseline: run \`${update}\` and ` +
          'commit baseline.json so the guard protects the gain.',
      );
    }
  }
  if (baseline.node !== environment.node) {
    lines.push(
      `Note: the baseline was recorded on Node ${baseline.node}, this is Node ${environment.node}; compared anyway ` +
        '(V8 changes move the counts: update the baseline when the supported Node version changes).',
    );
  }
  if (baseline.valgrind !== environment.valgrind) {
    lines.push(`Note: the baseline was recorded with ${baseline.valgrind}, this is ${environment.valgrind}.`);
  }
  return lines;
}
