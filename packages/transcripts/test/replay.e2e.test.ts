import { afterEach, describe, expect, it } from 'vitest';
import { MAIN_TOKEN, OTHER_TOKEN, STDIO_COMMAND, startOwnToolServer } from '../scripts/ownToolServer.mjs';
import { runCli } from '../src/cli.js';
import { type ReplayReport, ReplayReportSchema } from '../src/report.js';
import type { SpawnedServer } from '../src/spawnServer.js';
import { type BrokenProxy, startBrokenProxy } from './brokenProxy.js';

let server: SpawnedServer | undefined;
let proxy: BrokenProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.stop();
  proxy = undefined;
  server = undefined;
});

/** Runs the CLI with --json; resolves with the exit code and the parsed report. */
async function replay(args: string[]): Promise<{ code: number; report: ReplayReport; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(['replay', ...args, '--json'], { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, report: ReplayReportSchema.parse(JSON.parse(out)), err };
}

const failures = (report: ReplayReport) => report.results.filter((r) => r.outcome === 'fail');

describe('replay against our tool server', () => {
  it.each(['http', 'ws'] as const)('passes every expectation over %s with two principals', async (transport) => {
    server = await startOwnToolServer(transport);
    const { code, report } = await replay(['--url', server.url, '--token', MAIN_TOKEN, '--other-token', OTHER_TOKEN]);
    expect(failures(report)).toEqual([]);
    expect(report.summary).toMatchObject({ fail: 0, skip: 0 });
    expect(report.summary.pass).toBeGreaterThanOrEqual(80);
    expect(report.transport).toBe(transport);
    expect(code).toBe(0);
  });

  it('passes over stdio, skipping the second principal with the reason', async () => {
    const { code, report } = await replay(['--stdio', STDIO_COMMAND]);
    expect(failures(report)).toEqual([]);
    const skipped = report.results.filter((r) => r.outcome === 'skip');
    expect(skipped.map((r) => r.scenario)).toEqual(Array(skipped.length).fill('principal-isolation'));
    expect(skipped.find((r) => r.expectation === 'check: principal-isolation')?.reason).toMatch(
      /stdio server has one principal/,
    );
    expect(code).toBe(0);
  });

  it('skips the isolation steps without --other-token and expiry beyond the budget, never passing them', async () => {
    server = await startOwnToolServer('http');
    const { code, report } = await replay([
      '--url',
      server.url,
      '--token',
      MAIN_TOKEN,
      '--only',
      'principal-isolation',
      'expiry',
      '--expiry-budget-ms',
      '0',
    ]);
    const skipped = report.results.filter((r) => r.outcome === 'skip').map((r) => `${r.expectation}: ${r.reason}`);
    expect(skipped).toContainEqual(
      expect.stringMatching(/^check: principal-isolation: needs a second principal: no second principal configured/),
    );
    expect(skipped).toContainEqual(
      expect.stringMatching(/^tasks\/get after ttlMs: not found: the task expires in \d+ s, beyond the 0 s budget/),
    );
    expect(failures(report)).toEqual([]);
    expect(code).toBe(0);
  });
});

describe('replay against a broken server', () => {
  it('fails the checks the broken behaviours violate, and exits 1', async () => {
    server = await startOwnToolServer('http');
    proxy = await startBrokenProxy(server.url, { main: MAIN_TOKEN, other: OTHER_TOKEN });
    const { code, report } = await replay(['--url', proxy.url, '--token', MAIN_TOKEN, '--other-token', OTHER_TOKEN]);
    const failed = failures(report).map((r) => `${r.scenario} ${r.expectation}`);
    expect(failed).toEqual(
      expect.arrayContaining([
        'task-to-completion check: terminal-immutable',
        'concurrent-inputs check: input-keys-unique',
        'undeclared-input-kinds check: declared-input-kinds',
        'principal-isolation check: principal-isolation',
        'principal-isolation tasks/get as the other principal: not found',
      ]),
    );
    expect(code).toBe(1);
  }, 120_000);

  it('fails every step when nothing listens, without throwing', async () => {
    const { code, report } = await replay(['--url', 'http://127.0.0.1:9/mcp', '--only', 'immediate-result']);
    expect(report.results).toEqual([
      expect.objectContaining({
        scenario: 'immediate-result',
        outcome: 'fail',
        reason: expect.stringMatching(/fetch failed/),
      }),
    ]);
    expect(code).toBe(1);
  });
});
