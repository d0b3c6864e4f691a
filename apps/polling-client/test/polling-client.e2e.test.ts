/**
 * The built CLIs as real processes: the polling client following the tool server's demo tools to each outcome,
 * Ctrl-C, detach / kill / resume, bad credentials and a server that dies mid-task over every transport; its output,
 * exit codes and answers files over one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFlakyProxy } from './flakyProxy.js';
import {
  builtArtefacts,
  childPids,
  eventually,
  killAll,
  killSuite,
  runClient,
  SERVER_MAIN,
  type ServerUnderTest,
  startClient,
  startClientInTerminal,
  startServer,
  type TransportKind,
} from './processes.js';

// Long enough that Ctrl-C, SIGKILL and server death always land mid-flight; each MiB is a cancellation point.
const LONG_JOB = ['call', 'checksum_data', '--args', '{"megabytes":4096}'];
const WORKING_LINE = /\] working: hashing: \d+\/\d+ MiB/;

let dir: string;
let journal: string;

beforeAll(() => {
  const missing = builtArtefacts();
  if (missing.length > 0) throw new Error(`build first (pnpm build); missing ${missing.join(', ')}`);
});
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'polling-client-e2e-'));
  journal = join(dir, 'journal.json');
});
afterEach(async () => {
  await killAll();
  rmSync(dir, { recursive: true, force: true });
});

describe.each<TransportKind>(['stdio', 'http', 'ws'])('polling client over %s', (kind) => {
  let server: ServerUnderTest;
  beforeAll(async () => {
    server = await startServer(kind, [], 'suite');
  });
  afterAll(killSuite);

  const client = (...args: string[]) => [...args, ...server.flags, '--journal', journal];

  it('follows a task to completed with status updates (exit 0)', async () => {
    const result = await runClient(client('call', 'checksum_data', '--args', '{"megabytes":4,"seed":"e2e"}'));
    expect(result.code, result.stderr).toBe(0);
    // Without a terminal, progress goes to stderr and stdout carries the result alone.
    expect(result.stderr).toMatch(/^task \S+ created$/m);
    expect(result.stderr).toMatch(/\] completed$/m);
    expect(result.stdout).toMatch(/^SHA-256 of 4 MiB generated from seed "e2e": [0-9a-f]{64}/);
    expect(result.stdout).not.toMatch(/created|\] (working|completed)/);
  });

  it("prints a durable task's steps as they complete, and the re-run a retried step caused", async () => {
    const args = '{"database":"shop","tables":3,"tableMegabytes":1}';
    const result = await runClient(client('call', 'migrate_database', '--args', args));
    expect(result.code, result.stderr).toBe(0);
    const steps = result.stderr.split('\n').filter((line) => /\] (step done|run \d)/.test(line));
    expect(steps.map((line) => line.replace(/^\[\d+\.\ds\] /, ''))).toEqual([
      'step done: snapshot',
      'step done: migrate table 1',
      "run 2 of the task's work started (completed steps are replayed)",
      'step done: migrate table 2 (run 2)',
      'step done: migrate table 3 (run 2)',
    ]);
    expect(result.stdout).toMatch(/^Migrated 3 tables of shop/);
  });

  it('answers an elicitation form from --answers and completes', async () => {
    const answers = join(dir, 'answers.json');
    writeFileSync(answers, JSON.stringify({ confirm: true, note: 'e2e run' }));
    const args = '{"service":"web","version":"2.0.0"}';
    const result = await runClient(client('call', 'deploy_service', '--args', args, '--answers', answers));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/\] input_required/);
    expect(result.stderr).toMatch(
      /answered "Deploy web@2\.0\.0 .*" from .*: accept \{"confirm":true,"note":"e2e run"\}/,
    );
    expect(result.stdout).toMatch(/Deployed web@2\.0\.0 to staging, build [0-9a-f]{12} \(note: e2e run\)/);
    // After the answer the task is seen working again (the rollout) before it completes.
    expect(result.stderr).toMatch(
      /answered "Deploy[^\n]*\n(?:[^\n]*\n)*?\[[\d.]+s\] working: [^\n]*\n(?:[^\n]*\n)*?\[[\d.]+s\] completed/,
    );
  });

  it('answers a sampling request with the labelled built-in responder', async () => {
    const result = await runClient(client('call', 'summarize_text', '--args', '{"text":"Tasks outlive requests."}'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/answered a sampling request with the built-in responder \(no model attached\)/);
    expect(result.stdout).toMatch(/\[built-in responder, no model attached\] You said: Summarize the following text/);
  });

  it('cancels the task on Ctrl-C (tasks/cancel) and exits 130', async () => {
    const running = startClient(client(...LONG_JOB));
    await running.waitFor(WORKING_LINE, { stream: 'stderr' });
    const taskId = running.stderr().match(/^task (\S+) created$/m)?.[1];
    running.child.kill('SIGINT');
    // Messages carry the client's output, so a failure on a loaded CI machine explains itself.
    const said = () => `stdout:\n${running.stdout()}\nstderr:\n${running.stderr()}`;
    expect(await running.exited(), said()).toBe(130);
    expect(taskId, said()).toBeDefined();
    expect(running.stderr(), said()).toContain(`cancellation of task ${taskId} requested`);
    if (kind === 'stdio') return; // The stdio server went away with its client; nothing left to ask.
    const status = await runClient(client('status', String(taskId)));
    expect(status.stdout, status.stderr).toMatch(new RegExp(`^task ${taskId}: cancelled`, 'm'));
  });

  it('--detach prints the task id; a client killed with SIGKILL mid-resume is resumed to completion (C8)', async () => {
    const detached = await runClient(client('call', 'checksum_data', '--args', '{"megabytes":512}', '--detach'));
    expect(detached.code, detached.stderr).toBe(0);
    const taskId = detached.stdout.trim();
    expect(taskId).toMatch(/^\S+$/);
    const pending = await runClient(['pending', '--journal', journal]);
    expect(pending.stdout).toContain(taskId);
    if (kind === 'stdio') {
      // A stdio server exits with the client that spawned it: the task is gone, and resume says so (exit 3).
      expect(detached.stderr).toContain('cannot outlive it');
      const resumed = await runClient(['resume', taskId, '--journal', journal]);
      expect(resumed.code).toBe(3);
      expect(resumed.stderr).toMatch(/not found or expired/);
      return;
    }
    const first = startClient(['resume', taskId, '--journal', journal]);
    await first.waitFor(WORKING_LINE, { stream: 'stderr' });
    first.child.kill('SIGKILL');
    await first.exited();
    expect((await runClient(['pending', '--journal', journal])).stdout).toContain(taskId);
    const second = await runClient(['resume', taskId, '--journal', journal]);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(new RegExp(`^resuming task ${taskId}$`, 'm'));
    expect(second.stderr).not.toMatch(/created/);
    expect(second.stdout).toMatch(/SHA-256 of 512 MiB/);
    expect((await runClient(['pending', '--journal', journal])).stdout).toMatch(/^no pending tasks/);
  });

  it('rejects a wrong --token with exit 4 and one line naming the HTTP status', async () => {
    if (kind === 'stdio') {
      const result = await runClient(client('tools', '--token', 'wrong'));
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^error: --token applies to --url servers, not to --stdio\nRun ".* tools --help"/);
      return;
    }
    const guarded = await startServer(kind, ['--token', 'right-token']);
    const flags = [...guarded.flags, '--journal', journal];
    const wrong = await runClient(['tools', ...flags, '--token', 'wrong-token']);
    expect(wrong.code).toBe(4);
    expect(wrong.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(/rejected the credentials \((HTTP 401|Unauthorized)\); check --token/);
    const right = await runClient(['tools', ...flags, '--token', 'right-token']);
    expect(right.code, right.stderr).toBe(0);
    expect(right.stdout).toMatch(/^checksum_data /m);
  });

  // A server start, a task, the kill and a second of retries: about 3 s on a quiet machine (over ws the transport
  // reconnects for that second and the client says so; once it gives up, nothing is retried again).
  it('retries for --retry-for when the server dies mid-task, then exits 4 keeping the task for resume', {
    timeout: 60_000,
  }, async () => {
    const own = kind === 'stdio' ? server : await startServer(kind);
    const running = startClient([...LONG_JOB, ...own.flags, '--journal', journal, '--retry-for', '1']);
    await running.waitFor(WORKING_LINE, { stream: 'stderr' });
    const serverPid = kind === 'stdio' ? childPids(running.child.pid ?? 0)[0] : own.process?.child.pid;
    expect(serverPid).toBeTypeOf('number');
    process.kill(serverPid ?? 0, 'SIGKILL');
    expect(await running.exited()).toBe(4);
    expect(running.stderr()).toMatch(/^error: (Cannot reach the server|Lost the connection to the server)/m);
    expect(running.stderr()).toMatch(/stays in the journal: continue it with "resume \S+"\n$/);
    // A stdio server is gone for good with its process; a network one may come back, so the client retries.
    if (kind !== 'stdio') expect(running.stderr()).toMatch(/lost the server .*; retrying in \d+\.\d s/);
    else expect(running.stderr()).not.toMatch(/retrying/);
    // Over ws, every retry is the transport's: the client's own loop does not start another window once it closed.
    if (kind === 'ws') expect(running.stderr()).not.toMatch(/lost the server \((?!WebSocket closed, code)/);
  });
});

// What the client makes of a task it was told about (its output, exit codes, answers files, arguments) does not
// depend on the transport that told it: these run over one (ws, the cheapest to start a client on), while the
// cases above cover what each transport carries: completion, durable steps, input rounds, cancel, resume, retries.
describe('client-side behaviour, over one transport (ws)', () => {
  let server: ServerUnderTest;
  beforeAll(async () => {
    server = await startServer('ws', [], 'suite');
  });
  afterAll(killSuite);

  const client = (...args: string[]) => [...args, ...server.flags, '--journal', journal];

  it('--json: stdout carries exactly one JSON document, progress goes to stderr', async () => {
    const result = await runClient(client('call', 'checksum_data', '--args', '{"megabytes":2}', '--json'));
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ content: [{ type: 'text' }] });
    expect(result.stderr).toMatch(/^task \S+ created$/m);
    expect(result.stderr).toMatch(/\] completed$/m);
    const failed = await runClient(client('call', 'sync_inventory', '--args', '{"pages":1}', '--json'));
    expect(failed.code).toBe(5);
    expect(JSON.parse(failed.stdout)).toMatchObject({ error: { exitCode: 5 } });
  });

  it('with no terminal and no --answers, a form fails the run (exit 2) unless --non-interactive says what to answer', async () => {
    const args = ['call', 'deploy_service', '--args', '{"service":"web","version":"3.0.0"}'];
    const refused = await runClient(client(...args));
    expect(refused.code, refused.stdout).toBe(2);
    expect(refused.stderr).toMatch(
      /no terminal to ask on: pass --answers <file>, or --non-interactive decline\|cancel/,
    );
    const declined = await runClient(client(...args, '--non-interactive', 'decline'));
    expect(declined.stderr).toMatch(/answering decline \(--non-interactive\)/);
    expect(declined.code, declined.stderr).not.toBe(2);
  });

  it('takes a task id that starts with "-" as an id (status says unknown task, not unknown option)', async () => {
    const result = await runClient(client('status', '-wNoSuchTask'));
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).not.toMatch(/option/);
  });

  it('exits 1 for a completed task whose result has isError (C19)', async () => {
    const result = await runClient(client('call', 'verify_backup', '--args', '{"megabytes":2}'));
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/\] completed$/m);
    expect(result.stdout).toMatch(/tool error:\nBackup verification failed/);
  });

  it('exits 5 with one readable line for a failed task', async () => {
    const result = await runClient(client('call', 'sync_inventory', '--args', '{"pages":2}'));
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/\] failed: /m);
    // After the progress lines, the one error line ends stderr.
    expect(result.stderr).toMatch(/(^|\n)error: Task \S+ failed: .*malformed page 2\n$/);
  });

  it('an answers file that does not fit the form is a usage error (exit 2), not a silent decline', async () => {
    const args = ['call', 'deploy_service', '--args', '{"service":"web","version":"2.1.0"}', '--answers'];
    for (const [content, said] of [
      [{ confirm: 'yes' }, /field "confirm": expected true or false, got "yes"/],
      [{ note: 'no confirm' }, /field "confirm" is required/],
      [{ confirm: true, colour: 'red' }, /"colour" is not a field of the form/],
    ] as const) {
      const answers = join(dir, 'bad-answers.json');
      writeFileSync(answers, JSON.stringify(content));
      const result = await runClient(client(...args, answers));
      expect(result.code, result.stdout).toBe(2);
      expect(result.stderr).toMatch(said);
      expect(result.stdout).not.toMatch(/Deployed|nothing changed/);
    }
  });
});

describe('--json: stdout is exactly one JSON document for every command, failures included', () => {
  /** Parses stdout as one JSON value (two documents, or any text around one, fail to parse). */
  const one = (result: { stdout: string; stderr: string }): unknown => {
    try {
      return JSON.parse(result.stdout);
    } catch {
      throw new Error(`stdout is not one JSON document:\n${result.stdout}\nstderr:\n${result.stderr}`);
    }
  };
  const failure = (exitCode: number) => ({ error: { message: expect.any(String), exitCode } });

  // Fifteen client processes, one after another: about 7 s on a quiet machine, several times that under a loaded CI
  // run, so the shared 30 s limit (a hang guard, not a speed check) would fail it for the machine's load alone.
  it('tools, call, call --detach, status, cancel, resume, pending, and their failures', {
    timeout: 120_000,
  }, async () => {
    const http = await startServer('http');
    const on = [...http.flags, '--journal', journal, '--json'];
    const run = async (args: string[], code: number) => {
      const result = await runClient([...args, ...on]);
      expect(result.code, result.stderr).toBe(code);
      return one(result);
    };
    expect(await run(['tools'], 0)).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'checksum_data' })]),
    );
    expect(await run(['call', 'checksum_data', '--args', '{"megabytes":1}'], 0)).toMatchObject({ content: [{}] });
    const detached = (await run(['call', 'checksum_data', '--args', '{"megabytes":4096}', '--detach'], 0)) as {
      taskId: string;
    };
    expect(detached).toEqual({ taskId: expect.any(String), status: 'working' });
    expect(await run(['pending'], 0)).toEqual([expect.objectContaining({ taskId: detached.taskId })]);
    expect(await run(['status', detached.taskId], 0)).toMatchObject({ taskId: detached.taskId, status: 'working' });
    expect(await run(['cancel', detached.taskId], 0)).toEqual({ taskId: detached.taskId, cancelRequested: true });
    expect(await run(['resume', detached.taskId], 3)).toEqual(failure(3));
    expect(await run(['status', 'no-such-task'], 3)).toEqual(failure(3));
    expect(await run(['cancel', 'no-such-task'], 3)).toEqual(failure(3));
    expect(await run(['call', 'no_such_tool'], 5)).toEqual(failure(5));
    expect(await run(['call', 'checksum_data', '--bogus'], 2)).toEqual(failure(2));
    expect(await run(['no-such-command'], 2)).toEqual(failure(2));
    expect(one(await runClient(['pending', '--refresh', '--journal', journal, '--json']))).toEqual([]);
    const unreachable = await runClient(['tools', '--url', 'http://127.0.0.1:9/mcp', '--json']);
    expect(unreachable.code).toBe(4);
    expect(one(unreachable)).toEqual(failure(4));
  });

  it('Ctrl-C: the one document says the run was interrupted and what became of the task', async () => {
    const http = await startServer('http');
    const running = startClient([...LONG_JOB, ...http.flags, '--journal', journal, '--json']);
    await running.waitFor(WORKING_LINE, { stream: 'stderr' });
    running.child.kill('SIGINT');
    expect(await running.exited()).toBe(130);
    expect(one({ stdout: running.stdout(), stderr: running.stderr() })).toEqual({
      error: { message: expect.stringMatching(/^interrupted; cancellation of task \S+ requested$/), exitCode: 130 },
    });
  });
});

describe('a server that goes away mid-task and comes back', () => {
  it('a server restarted on the same port no longer knows the task: says so once, drops it, exits 3', async () => {
    const first = await startServer('http');
    const url = String(first.flags[1]);
    const port = new URL(url).port;
    const running = startClient([...LONG_JOB, '--url', url, '--journal', journal, '--retry-for', '30']);
    await running.waitFor(WORKING_LINE, { stream: 'stderr' });
    const taskId = running.stderr().match(/^task (\S+) created$/m)?.[1];
    first.process?.child.kill('SIGKILL');
    await running.waitFor(/lost the server .*; retrying in/, { stream: 'stderr' });
    // The same address again, but a fresh process: its tasks lived in the old one's memory.
    await startServer('http', ['--port', port]);
    expect(await running.exited(), running.stderr()).toBe(3);
    expect(running.stderr()).toMatch(
      new RegExp(
        `(^|\\n)error: The server no longer knows task ${taskId} \\(it may have restarted and lost it.*removed it from the journal\\n$`,
      ),
    );
    expect(
      running
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('error:')),
    ).toHaveLength(1);
    // Not worth keeping: nothing can find that task again.
    expect((await runClient(['pending', '--journal', journal])).stdout).toMatch(/^no pending tasks/);
  });

  it('a network that drops every connection for a while is retried, and the task completes', async () => {
    const http = await startServer('http');
    const proxy = await startFlakyProxy(Number(new URL(String(http.flags[1])).port));
    try {
      const url = `http://127.0.0.1:${proxy.port}/mcp`;
      const args = ['call', 'checksum_data', '--args', '{"megabytes":256,"seed":"flaky"}'];
      const running = startClient([...args, '--url', url, '--journal', journal, '--retry-for', '60']);
      await running.waitFor(WORKING_LINE, { stream: 'stderr' });
      proxy.cut();
      await running.waitFor(/lost the server .*; retrying in/, { stream: 'stderr' });
      proxy.restore();
      expect(await running.exited(), running.stderr()).toBe(0);
      expect(running.stdout()).toMatch(/SHA-256 of 256 MiB generated from seed "flaky": [0-9a-f]{64}/);
      expect((await runClient(['pending', '--journal', journal])).stdout).toMatch(/^no pending tasks/);
    } finally {
      await proxy.close();
    }
  });
});

describe('the interactive form on a terminal', () => {
  it('asks accept / decline / cancel and each field with prompts, sends the answer, and completes', async () => {
    const http = await startServer('http');
    const args = ['call', 'deploy_service', '--args', '{"service":"web","version":"4.0.0"}'];
    const running = startClientInTerminal([...args, ...http.flags, '--journal', journal]);
    const screen = () => stripVTControlCharacters(running.stdout());
    const press = async (shown: string, keys: string) => {
      await eventually(() => screen().includes(shown), `the terminal shows ${shown}:\n${screen()}`);
      running.child.stdin?.write(keys);
    };
    await press('↑/↓ to navigate • Enter: confirm', '\r'); // Accept is preselected.
    await press('Deploy now?', 'y');
    await press('Change note', 'typed at a prompt\r');
    expect(await running.exited(), screen()).toBe(0);
    expect(screen()).toMatch(/Deployed web@4\.0\.0 to staging, build [0-9a-f]{12} \(note: typed at a prompt\)/);
  });
});

describe('servers that do not answer, and stale journal entries', () => {
  it('gives up on a --stdio command that is not an MCP stdio server, says what it said, and reaps it', async () => {
    const notStdio = `${process.execPath} ${SERVER_MAIN} --transport http --port 0`;
    const result = await runClient(['tools', '--stdio', notStdio, '--connect-timeout', '1']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /did not answer within 1 s .*--transport stdio.*It said: .*listening on (http:\/\/\S+\/mcp)/,
    );
    const url = /listening on (http:\/\/\S+\/mcp)/.exec(result.stderr)?.[1] ?? '';
    await expect(fetch(url, { method: 'POST' })).rejects.toThrow();
  });

  it('reaps a stdio child on Ctrl-C while waiting for its first answer', async () => {
    const running = startClient(['tools', '--stdio', 'sleep 600', '--connect-timeout', '60']);
    await eventually(() => childPids(running.child.pid ?? 0).length > 0, 'the client spawned sleep');
    const [sleeper] = childPids(running.child.pid ?? 0);
    running.child.kill('SIGINT');
    expect(await running.exited()).toBe(130);
    await eventually(() => !alive(sleeper ?? 0), 'sleep was reaped');
  });

  it('points an http:// URL at a WebSocket server to ws://', async () => {
    const ws = await startServer('ws');
    const httpUrl = String(ws.flags[1]).replace(/^ws:/, 'http:');
    const result = await runClient(['tools', '--url', httpUrl]);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/use a ws:\/\/ URL/);
  });

  it('status of a task the journal no longer holds says why and how to name the server (exit 2)', async () => {
    const result = await runClient(['status', 'ended-task', '--journal', journal]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: task ended-task is not in the journal \(it ended, or was started with another --journal\), so say which server: --url <url> or --stdio "<command>"\n/,
    );
  });

  it('pending --refresh says the states were just asked, not that they are stale', async () => {
    const http = await startServer('http');
    const flags = [...http.flags, '--journal', journal];
    const detached = await runClient(['call', 'checksum_data', '--args', '{"megabytes":4096}', '--detach', ...flags]);
    const refreshed = await runClient(['pending', '--refresh', '--journal', journal]);
    expect(refreshed.stdout).toMatch(new RegExp(`^${detached.stdout.trim()}  checksum_data  working`, 'm'));
    expect(refreshed.stdout).toMatch(/^\(states just asked of their servers\)$/m);
    expect(refreshed.stdout).not.toMatch(/as last seen/);
    await runClient(['cancel', detached.stdout.trim(), ...flags]);
  });

  it('status prints the TTL readably, and a task it saw end leaves pending', async () => {
    const http = await startServer('http');
    const flags = [...http.flags, '--journal', journal];
    const detached = await runClient(['call', 'checksum_data', '--args', '{"megabytes":1}', '--detach', ...flags]);
    const taskId = detached.stdout.trim();
    let status = '';
    await expect
      .poll(
        async () => {
          status = (await runClient(['status', taskId, ...flags])).stdout;
          return status;
        },
        { timeout: 10_000 },
      )
      .toMatch(/: completed/);
    expect(status).toMatch(/^ {2}kept for \d+ (d|h|min|s)( \d+ (h|min|s))? after creation \(ttl\)$/m);
    expect((await runClient(['pending', '--journal', journal])).stdout).toMatch(/^no pending tasks/);
  });

  it('pending --refresh drops a task that ended instead of showing it working forever', async () => {
    const http = await startServer('http');
    const flags = [...http.flags, '--journal', journal];
    const detached = await runClient(['call', 'checksum_data', '--args', '{"megabytes":1}', '--detach', ...flags]);
    const taskId = detached.stdout.trim();
    // Each refresh keeps the task while it works; the first one that sees it completed removes it and says so.
    let refreshed = { stdout: '', stderr: '' };
    await expect
      .poll(
        async () => {
          refreshed = await runClient(['pending', '--refresh', '--journal', journal]);
          return refreshed.stderr;
        },
        { timeout: 10_000 },
      )
      .toMatch(new RegExp(`${taskId}: completed; removed`));
    expect(refreshed.stdout).toMatch(/^no pending tasks/);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
