// Our polling-client CLI (apps/polling-client, built) against the reference "everything" server
// (@modelcontextprotocol/server-everything, pinned; a 2025-era server built on SDK v1) over stdio: with no protocol
// flag (auto: `server/discover` is refused, so it falls back to `initialize`) and pinned with `--protocol 2025-11-25`.
// Lists tools, calls a plain tool, answers the server's own elicitation and sampling requests (L-C11..L-C15: a 2025
// session answers server requests with the same handlers), follows a 2025-11-25 task (tasks/get, tasks/result) with
// an elicitation declined by `--non-interactive`, answers `roots/list` from `--root`, and runs the sampling and
// elicitation requests the server makes task-augmented (client-side tasks).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../../apps/polling-client/dist/main.js', import.meta.url));
const EVERYTHING = fileURLToPath(new URL('../node_modules/.bin/mcp-server-everything', import.meta.url));

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'everything-e2e-'));
  writeFileSync(
    join(dir, 'answers.json'),
    JSON.stringify({ name: 'Ada Lovelace', check: true, email: 'ada@example.com' }),
  );
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI against a fresh server-everything on stdio (stdin closed: no terminal, so no interactive form). */
function cli(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args, '--stdio', EVERYTHING, '--journal', join(dir, 'journal.json')],
      { timeout: 60_000, killSignal: 'SIGKILL', env: { ...process.env, XDG_DATA_HOME: dir } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/** The one JSON document `--json` prints, with the run shown when it is not one. */
function json(run: Run): Record<string, unknown> {
  try {
    return JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`no JSON document (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
}

function text(result: Record<string, unknown>): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((block) => block.text ?? '').join('\n');
}

describe.each([
  ['no protocol flag (auto)', [] as string[], 'detected'],
  ['--protocol 2025-11-25', ['--protocol', '2025-11-25'], 'pinned with --protocol'],
])('polling-client CLI -> server-everything over stdio, %s', (_name, protocol, how) => {
  it('L-C2, L-C5: negotiates 2025-11-25 via initialize, says so with --verbose, and lists the tools', async () => {
    const run = await cli(['tools', '--json', '--verbose', ...protocol]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      `protocol: MCP 2025-11-25, 2025 era (initialize handshake; ${how}); server mcp-servers/everything`,
    );
    const names = (JSON.parse(run.stdout) as { name: string }[]).map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'get-sum', 'trigger-long-running-operation']));
  });

  it('calls echo', async () => {
    const run = await cli(['call', 'echo', '--args', '{"message":"hello everything"}', '--json', ...protocol]);
    expect(run.code).toBe(0);
    expect(text(json(run))).toBe('Echo: hello everything');
  });

  it('calls a multi-step tool (trigger-long-running-operation) to its result', async () => {
    const run = await cli([
      'call',
      'trigger-long-running-operation',
      '--args',
      '{"duration":0.2,"steps":2}',
      '--json',
      ...protocol,
    ]);
    expect(run.code).toBe(0);
    expect(text(json(run))).toContain('Long running operation completed');
  });

  it("L-C12, L-C15: answers the server's elicitation/create from --answers", async () => {
    const run = await cli([
      'call',
      'trigger-elicitation-request',
      '--answers',
      join(dir, 'answers.json'),
      '--json',
      ...protocol,
    ]);
    expect(run.code).toBe(0);
    const output = text(json(run));
    expect(output).toContain('User provided the requested information');
    expect(output).toContain('Ada Lovelace');
    expect(output).toContain('ada@example.com');
  });

  it("L-C13, L-C15: answers the server's sampling/createMessage with the built-in responder", async () => {
    const run = await cli([
      'call',
      'trigger-sampling-request',
      '--args',
      '{"prompt":"ping me"}',
      '--json',
      ...protocol,
    ]);
    expect(run.code).toBe(0);
    const output = text(json(run));
    expect(output).toContain('[built-in responder, no model attached]');
    expect(output).toContain('ping me');
    expect(run.stderr).toContain('answered a sampling request with the built-in responder');
  });

  it("L-C14: answers the server's roots/list from --root", async () => {
    const run = await cli(['call', 'get-roots-list', '--root', 'file:///work/project', '--json', ...protocol]);
    expect(run.code).toBe(0);
    expect(text(json(run))).toContain('URI: file:///work/project');
  });

  it('L-C22: declines an elicitation the server makes task-augmented (client-side task), by --non-interactive', async () => {
    const run = await cli([
      'call',
      'trigger-elicitation-request-async',
      '--non-interactive',
      'decline',
      '--json',
      ...protocol,
    ]);
    expect(run.code).toBe(0);
    expect(text(json(run))).toContain('[DECLINED]');
  });

  it('L-C22: runs a sampling request the server makes task-augmented (client-side task) to its result', async () => {
    const run = await cli([
      'call',
      'trigger-sampling-request-async',
      '--args',
      '{"prompt":"as a task"}',
      '--json',
      ...protocol,
    ]);
    expect(run.code).toBe(0);
    const output = text(json(run));
    expect(output).toContain('Async sampling completed');
    expect(output).toContain('as a task');
  });

  it('L-C18, L-C19: follows a 2025-11-25 task (taskSupport required) whose elicitation is declined by --non-interactive', async () => {
    const run = await cli([
      'call',
      'simulate-research-query',
      '--args',
      '{"topic":"eras","ambiguous":true}',
      '--non-interactive',
      'decline',
      '--json',
      ...protocol,
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/task \S+ created/);
    expect(run.stderr).toContain('answering decline (--non-interactive)');
    expect(text(json(run))).toContain('Research Report: eras (User declined');
  });
});
