// An InMemoryTaskStore whose clock, timers and id bytes are fixed, so two runs execute the same instructions.
import { createHash } from 'node:crypto';
import { InMemoryTaskStore } from '@mcp-tasks/task-store';

/** A fixed epoch (ms): every record gets the same timestamps, so ISO formatting costs the same in every run. */
export const EPOCH = Date.UTC(2026, 0, 1);

/** The frozen clock. */
export const fixedNow = () => EPOCH;

/** How many pool refills one SHAKE256 run produces. */
const REFILLS_PER_HASH = 64;

/**
 * A seeded byte source: SHAKE256 of a counter. Task ids look random, are unique and identical from run to run.
 * The hashing happens once per 64 refills, on the first one (in the warm-up), and each refill then copies its
 * bytes: the store refills its id pool every 512 ids, and a refill that hashed (about 450,000 instructions) made
 * whichever measured segment held it about 2 % costlier than the other, close enough to the 3 % segment agreement
 * that one CI run called the path unsteady.
 */
function seededFill() {
  let counter = 0;
  let stream = new Uint8Array(0);
  let offset = 0;
  return (buffer) => {
    if (offset + buffer.length > stream.length) {
      counter++;
      const outputLength = buffer.length * REFILLS_PER_HASH;
      stream = createHash('shake256', { outputLength }).update(`perf-guard ${counter}`).digest();
      offset = 0;
    }
    buffer.set(stream.subarray(offset, offset + buffer.length));
    offset += buffer.length;
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
