import { runCheck } from './checks.js';
import { loadPack } from './loadPack.js';
import { openWire, type Target } from './openWire.js';
import { type ReplayReport, summarize } from './report.js';
import { StepRunner } from './runSteps.js';
import type { Transcript } from './transcriptSchema.js';

/** Options of {@link replayPack}. */
export interface ReplayOptions {
  /** The transcripts to play. @default the pack shipped with this package */
  readonly transcripts?: readonly Transcript[];
  /** Only these scenarios (by name). @default all */
  readonly only?: readonly string[];
  /** Longest wait for a task to expire; an expiry due later is reported as skipped. @default 15000 */
  readonly expiryBudgetMs?: number;
}

/**
 * Plays the client side of each transcript against `target`, one scenario after another on one connection per
 * principal, and reports every expectation: each step's response (and, over HTTP, its status and content type)
 * against the recorded one, then each behaviour the transcript names, checked over the scenario's exchanges.
 * Expectations that need something the target was not given (a second principal, a short TTL) are skipped with
 * the reason, never passed. Never rejects for a failing server: a refused connection fails the steps.
 */
export async function replayPack(target: Target, options: ReplayOptions = {}): Promise<ReplayReport> {
  const all = options.transcripts ?? loadPack();
  const transcripts = options.only === undefined ? all : all.filter((t) => options.only?.includes(t.scenario));
  const wire = await openWire(target, transcripts[0]?.protocolVersion ?? '2026-07-28');
  const results: ReplayReport['results'] = [];
  try {
    for (const transcript of transcripts) {
      const runner = new StepRunner(transcript.scenario, wire, {
        kind: 'replay',
        expiryBudgetMs: options.expiryBudgetMs ?? 15_000,
      });
      try {
        for (const step of transcript.steps) await runner.run(step);
      } finally {
        await runner.closeAll();
      }
      results.push(...runner.results);
      for (const check of transcript.checks) {
        const verdict = runCheck(check, runner.log, wire.otherUnavailable);
        results.push({ scenario: transcript.scenario, expectation: `check: ${check}`, ...verdict });
      }
    }
  } finally {
    await wire.close();
  }
  const where = target.stdio === undefined ? (target.url ?? '') : `stdio: ${target.stdio}`;
  return { target: where, transport: wire.kind, results, summary: summarize(results) };
}
