// An InMemoryTaskStore whose clock, timers and id bytes are fixed, so two runs execute the same instructions.
import { createHash } from 'node:crypto';
import { InMemoryTaskStore } from '@mcp-tasks/task-store';

/** A fixed epoch (ms): every record gets the same timestamps, so ISO formatting costs the same in every run. */
export const EPOCH = Date.UTC(2026, 0, 1);

/** The frozen clock. */
export const fixedNow = () => EPOCH;

/**
 * A seeded byte source: SHAKE256 of a counter. Task ids look random, are unique and identical from run to run,
 * and a refill (every 512 ids) costs about what the default `crypto.getRandomValues` costs: a byte loop in JS
 * instead cost 6 million instructions per refill and swung the store path's segments by a quarter.
 */
function seededFill() {
  let counter = 0;
  return (buffer) => {
    counter++;
    buffer.set(createHash('shake256', { outputLength: buffer.length }).update(`perf-guard ${counter}`).digest());
  };
}

/**
 * Creates the store the measured paths use: a frozen clock, a timer that never fires (no expiry sweep runs during
 * a measurement; the tasks' TTL is an hour anyway) and deterministic ids.
 */
export function deterministicStore() {
  return new InMemoryTaskStore({
    // Keeps the store at a steady size: each create beyond it drops the oldest finished task, as in production.
    maxFinishedTasksPerOwner: 100,
    now: fixedNow,
    setTimer: () => undefined,
    clearTimer: () => {},
    randomFill: seededFill(),
  });
}
