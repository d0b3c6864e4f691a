import { createHash } from 'node:crypto';
import type { ToolContext } from '@mcp-tasks/server';
import { yieldToEventLoop } from './yieldToEventLoop.js';

/** 1 MiB: the unit of work between two cancellation checks and status updates. */
export const CHUNK_BYTES = 1024 * 1024;

/** A 32-bit seed from a string (FNV-1a), so the same seed always generates the same data. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0 || 1;
}

/** Fast deterministic pseudo-random data (xorshift32): synthetic input for the demo jobs, not for cryptography. */
export class PseudoRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0 || 1;
  }

  /** The next 32-bit value. */
  next(): number {
    let x = this.#state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.#state = x >>> 0;
    return this.#state;
  }

  /** Fills `words` with the next values. */
  fill(words: Uint32Array): void {
    for (let i = 0; i < words.length; i++) words[i] = this.next();
  }
}

/** Reports step `done` of `total`: `statusMessage` in a task, `notifications/progress` for a synchronous call. */
export async function report(ctx: ToolContext, done: number, total: number, message: string): Promise<void> {
  if (ctx.taskId === undefined) ctx.progress(done, total, message);
  else await ctx.setStatus(message);
}

/** Least time between two progress reports of a loop: often enough to watch, rare enough to cost nothing. */
export const REPORT_INTERVAL_MS = 200;

/**
 * A {@link report} for loops: reports the first step, the last step, and otherwise at most once per
 * {@link REPORT_INTERVAL_MS}.
 */
export function throttledReport(ctx: ToolContext): (done: number, total: number, message: string) => Promise<void> {
  let last = Number.NEGATIVE_INFINITY;
  return async (done, total, message) => {
    const now = performance.now();
    if (done < total && now - last < REPORT_INTERVAL_MS) return;
    last = now;
    await report(ctx, done, total, message);
  };
}

/** Where a sub-step sits on its job's progress scale, so progress never goes backwards across steps. */
export interface ProgressSpan {
  readonly offset: number;
  readonly total: number;
}

/**
 * SHA-256 of `megabytes` MiB of data generated from `seed`, computed chunk by chunk. Between chunks it checks
 * `ctx.signal` (so cancellation stops the work within one chunk), yields to the event loop and reports progress
 * (throttled, placed at `span` on the job's scale). Returns the hex digest.
 */
export async function hashGeneratedData(
  ctx: ToolContext,
  seed: string,
  megabytes: number,
  label: string,
  span: ProgressSpan = { offset: 0, total: megabytes },
): Promise<string> {
  const progress = throttledReport(ctx);
  const random = new PseudoRandom(seedOf(seed));
  const hash = createHash('sha256');
  const words = new Uint32Array(CHUNK_BYTES / 4);
  for (let chunk = 1; chunk <= megabytes; chunk++) {
    ctx.signal.throwIfAborted();
    random.fill(words);
    hash.update(words);
    await progress(span.offset + chunk, span.total, `${label}: ${chunk}/${megabytes} MiB`);
    await yieldToEventLoop();
  }
  return hash.digest('hex');
}
