/**
 * How much each part of the suite does. `check` runs the short form (`pnpm test` here); `pnpm test:reliability` at
 * the root sets RELIABILITY_LONG=1 for the long one. Figures measured along the way are printed at the end of each
 * file, so the run's log states what was tried and held.
 */
import { afterAll } from 'vitest';

export const LONG = process.env.RELIABILITY_LONG === '1';

/**
 * The fast-check seed of every fuzz property. Fixed in the short run, so `check` tries the same inputs every time
 * (an unseeded fuzz once hung a CI run on an input nobody could replay); the long run draws a new one to explore
 * further. `FUZZ_SEED=<n>` replays a run: the seed is among the figures printed at the end of the file, and
 * fast-check prints it with any counterexample.
 */
export const FUZZ_SEED =
  process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : LONG ? Date.now() % 2 ** 31 : 0x2663;
if (!Number.isSafeInteger(FUZZ_SEED)) throw new Error(`FUZZ_SEED must be an integer, got ${process.env.FUZZ_SEED}`);

/** fast-check runs per property (the short run keeps `check` within its time budget; the long run explores). */
export const FUZZ_RUNS = LONG ? 20_000 : 500;
/** fast-check runs per property that goes through a real socket (slower per case). */
export const SOCKET_FUZZ_RUNS = LONG ? 5_000 : 250;
/**
 * Soak duration. The short soak still drives every kind of traffic over all three transports (thousands of tasks)
 * and checks the same invariants; only the long run holds the load long enough to show slow leaks.
 */
export const SOAK_MS = LONG ? 10 * 60_000 : 15_000;
/** p99 latency a plain call must stay under during the soak, on a shared two-core machine. */
export const SOAK_P99_BOUND_MS = 3_000;
/** PostgreSQL restarts under load in the database fault test. */
export const DATABASE_RESTARTS = LONG ? 5 : 1;
/** Tasks in flight when PostgreSQL goes down in the database outage test. */
export const OUTAGE_TASKS = 200;
/** How long PostgreSQL stays down in the database outage test. */
export const OUTAGE_MS = LONG ? 10_000 : 3_000;
/** How long a request may take to settle while the database is down (its connect timeout is 1 s). */
export const OUTAGE_SETTLE_BOUND_MS = 10_000;

const figures: Record<string, number | string> = {};

/** Records one measured figure for the end-of-file report. */
export function figure(name: string, value: number | string): void {
  figures[name] = value;
}

/** Adds to a counted figure. */
export function count(name: string, by = 1): void {
  figures[name] = Number(figures[name] ?? 0) + by;
}

afterAll(() => {
  if (Object.keys(figures).length === 0) return;
  const lines = Object.entries(figures).map(([name, value]) => `  ${name}: ${value}`);
  console.log(`reliability figures (${LONG ? 'long' : 'short'} run):\n${lines.join('\n')}`);
});

/** Collects garbage when the process allows it (`--expose-gc`), so heap figures mean live data. */
export function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** Open file descriptors of this process (Linux); undefined elsewhere. */
export async function openFds(): Promise<number | undefined> {
  const { readdir } = await import('node:fs/promises');
  return readdir('/proc/self/fd').then(
    (entries) => entries.length,
    () => undefined,
  );
}
