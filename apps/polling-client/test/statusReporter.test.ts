import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { StatusReporter } from '../src/statusReporter.js';

function capture(): { out: PassThrough; text: () => string } {
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  return { out, text: () => chunks.join('') };
}

describe('StatusReporter', () => {
  it('prints one plain line per change of status or message when not on a terminal', () => {
    const { out, text } = capture();
    const reporter = new StatusReporter(out, false);
    reporter.update({ taskId: 't1', status: 'working', statusMessage: 'step 1' });
    reporter.update({ taskId: 't1', status: 'working', statusMessage: 'step 1' });
    reporter.update({ taskId: 't1', status: 'working', statusMessage: 'step 2' });
    reporter.update({ taskId: 't1', status: 'completed' });
    reporter.stop();
    const lines = text().trimEnd().split('\n');
    // Whether the task was created or resumed is the caller's to say; the reporter shows states only.
    expect(lines.map((l) => l.replace(/^\[\d+\.\ds\] /, ''))).toEqual([
      'working: step 1',
      'working: step 2',
      'completed',
    ]);
  });

  it('redraws one live line on a terminal and clears it on stop', () => {
    const { out, text } = capture();
    const reporter = new StatusReporter(out, true);
    reporter.update({ taskId: 't1', status: 'working', statusMessage: 'hashing' });
    reporter.stop();
    expect(text().replaceAll('\u001b', 'ESC')).toMatch(/ESC\[2K. working · hashing · \d+\.\ds/);
    expect(text().endsWith('\r\u001b[2K')).toBe(true);
  });

  it("prints a durable task's completed steps once each, and the re-runs, from its _meta", () => {
    const { out, text } = capture();
    const reporter = new StatusReporter(out, false);
    const execution = (attempt: number, steps: Array<[string, number]>) => ({
      'io.mcp-tasks/execution': {
        state: 'running',
        attempt,
        steps: steps.map(([name, run]) => ({ name, attempt: run })),
      },
    });
    reporter.update({ taskId: 't1', status: 'working', _meta: execution(1, [['build', 1]]) });
    reporter.update({ taskId: 't1', status: 'working', _meta: execution(1, [['build', 1]]) });
    reporter.update({
      taskId: 't1',
      status: 'working',
      _meta: execution(2, [
        ['build', 1],
        ['push', 2],
      ]),
    });
    reporter.update({ taskId: 't1', status: 'working', _meta: { 'io.mcp-tasks/execution': { state: 'odd' } } });
    reporter.stop();
    expect(
      text()
        .trimEnd()
        .split('\n')
        .map((l) => l.replace(/^\[\d+\.\ds\] /, '')),
    ).toEqual([
      'step done: build',
      'working',
      "run 2 of the task's work started (completed steps are replayed)",
      'step done: push (run 2)',
    ]);
  });
});
