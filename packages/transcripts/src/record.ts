import { normalizeForPack } from './normalizeForPack.js';
import { openWire, type Target } from './openWire.js';
import { StepRunner } from './runSteps.js';
import { SCENARIO_PROTOCOL_VERSION, SCENARIOS, type Scenario } from './scenarios.js';
import type { Step, Transcript } from './transcriptSchema.js';

/**
 * Plays the client side of each scenario against `target` and returns the transcripts: every request with the
 * answer the server gave, normalized (see `normalizeForPack`), and over HTTP the headers sent and the status and
 * content type received. Record against a server known to be right (this repository records its own tool
 * server); the server needs a second principal (`otherToken`) for the isolation scenario. Rejects when a step
 * never reaches the state it waits for.
 */
export async function recordPack(target: Target, scenarios: readonly Scenario[] = SCENARIOS): Promise<Transcript[]> {
  const wire = await openWire(target, SCENARIO_PROTOCOL_VERSION);
  try {
    const transcripts: Transcript[] = [];
    for (const scenario of scenarios) {
      const runner = new StepRunner(scenario.scenario, wire, {
        kind: 'record',
        expiryBudgetMs: 60_000,
        normalize: (value, vars) => normalizeForPack(value, vars),
      });
      const steps: Step[] = [];
      try {
        for (const step of scenario.steps) steps.push(await runner.run(step));
      } finally {
        await runner.closeAll();
      }
      const { steps: _skeleton, ...about } = scenario;
      transcripts.push({ format: 1, ...about, protocolVersion: SCENARIO_PROTOCOL_VERSION, steps });
    }
    return transcripts;
  } finally {
    await wire.close();
  }
}
