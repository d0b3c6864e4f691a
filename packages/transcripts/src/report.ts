import { z } from 'zod';

/** The outcome of one expectation. */
export const OutcomeSchema = z.enum(['pass', 'fail', 'skip']);

/** One reported expectation: a step's response (and HTTP head), or a behaviour checked over a scenario. */
export const ExpectationResultSchema = z.object({
  /** The scenario the expectation belongs to. */
  scenario: z.string(),
  /** The step's name, or `check: <name>` for a behaviour checked over the whole scenario. */
  expectation: z.string(),
  /** `pass`, `fail`, or `skip` when the target lacks what the expectation needs (never counted as a pass). */
  outcome: OutcomeSchema,
  /** Why it failed or was skipped. */
  reason: z.string().optional(),
});

/** Everything one replay found. */
export const ReplayReportSchema = z.object({
  /** The server replayed against: its URL, or `stdio: <command>`. */
  target: z.string(),
  /** The transport used: Streamable HTTP, WebSocket or stdio. */
  transport: z.enum(['http', 'ws', 'stdio']),
  /** Every expectation in replay order: each scenario's steps, then its behaviour checks. */
  results: z.array(ExpectationResultSchema),
  /** How many expectations had each outcome. */
  summary: z.object({
    /** Expectations that passed. */
    pass: z.int(),
    /** Expectations that failed. */
    fail: z.int(),
    /** Expectations skipped (with their reason in `results`). */
    skip: z.int(),
  }),
});

/** The outcome of one expectation. */
export type Outcome = z.infer<typeof OutcomeSchema>;
/** One reported expectation. */
export type ExpectationResult = z.infer<typeof ExpectationResultSchema>;
/** Everything one replay found (what `--json` prints). */
export type ReplayReport = z.infer<typeof ReplayReportSchema>;

/** Counts outcomes. */
export function summarize(results: readonly ExpectationResult[]): ReplayReport['summary'] {
  const summary = { pass: 0, fail: 0, skip: 0 };
  for (const result of results) summary[result.outcome]++;
  return summary;
}

/** The report as text lines for a terminal: one line per expectation, then the totals. */
export function formatReport(report: ReplayReport): string {
  const lines = [`replay against ${report.target} (${report.transport})`];
  let scenario = '';
  for (const result of report.results) {
    if (result.scenario !== scenario) {
      scenario = result.scenario;
      lines.push(`\n${scenario}`);
    }
    const reason = result.reason === undefined ? '' : `: ${result.reason}`;
    lines.push(`  ${result.outcome.toUpperCase().padEnd(4)} ${result.expectation}${reason}`);
  }
  const { pass, fail, skip } = report.summary;
  lines.push(`\n${pass} passed, ${fail} failed, ${skip} skipped`);
  return `${lines.join('\n')}\n`;
}
