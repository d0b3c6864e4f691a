import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import { loadPack } from '../src/loadPack.js';
import { SCENARIOS } from '../src/scenarios.js';

describe('the shipped pack', () => {
  it('holds one valid transcript per scenario, in order, each naming its tools', () => {
    const pack = loadPack();
    expect(pack.map((t) => t.scenario)).toEqual(SCENARIOS.map((s) => s.scenario));
    for (const transcript of pack) {
      expect(transcript.tools.length).toBeGreaterThan(0);
      const tools = new Set(transcript.tools.map((tool) => tool.name));
      for (const step of transcript.steps) {
        if ('method' in step && step.method === 'tools/call') expect(tools).toContain(step.params.name);
      }
    }
  });

  it('records the HTTP head of every request step and placeholders for ids and times', () => {
    const text = JSON.stringify(loadPack());
    expect(text).toContain('"mcp-name":"{{taskId}}"');
    expect(text).toContain('"createdAt":"<iso8601>"');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    for (const transcript of loadPack()) {
      for (const step of transcript.steps)
        if (step.kind === 'send' || step.kind === 'poll') expect(step.http).toBeDefined();
    }
  });
});

describe('the command line', () => {
  const run = async (argv: string[]) => {
    let out = '';
    let err = '';
    const code = await runCli(argv, { out: (t) => (out += t), err: (t) => (err += t) });
    return { code, out, err };
  };

  it('needs a target and rejects unknown options with exit 2', async () => {
    expect(await run(['replay'])).toMatchObject({
      code: 2,
      err: 'mcp-tasks-transcripts: give --url or --stdio (see --help)\n',
    });
    expect((await run(['replay', '--bogus'])).code).toBe(2);
    expect((await run(['replay', '--url', 'ftp://x'])).err).toMatch(/unsupported URL ftp:\/\/x/);
    expect((await run(['replay', '--url', 'http://x', '--header', 'nocolon'])).code).toBe(2);
  });

  it('lists the scenarios with the tools each needs', async () => {
    const { code, out } = await run(['list']);
    expect(code).toBe(0);
    expect(out).toContain('principal-isolation: Principal isolation');
    expect(out).toContain('tool multi_input:');
  });
});
