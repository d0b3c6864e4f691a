#!/usr/bin/env node
/**
 * The README's demo: starts the tool server over HTTP on a free port, runs the polling client through a full task
 * lifecycle (working with status updates → input_required answered from demo/answers.json → working →
 * completed), then a run cancelled with Ctrl-C (SIGINT), stops the server and exits 0. Exits 1 if any step did
 * not behave as shown. Needs both apps built.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const CLIENT = join(here, 'main.js');
const SERVER = resolve(here, '../../tool-server/dist/main.js');
const ANSWERS = resolve(here, '../demo/answers.json');

const bold = (text: string) => (process.stdout.isTTY ? `\x1b[1m${text}\x1b[0m` : text);
const say = (text: string) => process.stdout.write(`\n${bold(text)}\n`);

/** A started child with its output mirrored (indented) and kept for checks. */
interface Child {
  readonly process: ChildProcess;
  output(): string;
  exited: Promise<number>;
  /** Resolves once `pattern` appears in the output. */
  seen(pattern: RegExp): Promise<void>;
}

function start(args: readonly string[], mirror: 'stdout' | 'stderr' | 'none' = 'stdout'): Child {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const listeners = new Set<() => void>();
  const take = (stream: 'stdout' | 'stderr') => (chunk: string) => {
    output += chunk;
    if (mirror !== 'none' && (mirror === stream || stream === 'stderr'))
      process.stdout.write(chunk.replace(/^(?=.)/gm, '  │ '));
    for (const listener of listeners) listener();
  };
  child.stdout?.setEncoding('utf8').on('data', take('stdout'));
  child.stderr?.setEncoding('utf8').on('data', take('stderr'));
  const exited = new Promise<number>((done) => child.once('close', (code) => done(code ?? 1)));
  return {
    process: child,
    output: () => output,
    exited,
    seen: (pattern) =>
      new Promise((done, fail) => {
        const check = () => {
          if (pattern.test(output)) {
            listeners.delete(check);
            done();
          }
        };
        listeners.add(check);
        exited.then(() => fail(new Error(`the process exited before printing ${pattern}`)));
        check();
      }),
  };
}

function expect(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

async function main(): Promise<void> {
  for (const [what, path] of [
    ['tool server', SERVER],
    ['polling client', CLIENT],
  ] as const)
    expect(existsSync(path), `the ${what} is not built (${path}); run pnpm build first`);
  const journalDir = mkdtempSync(join(tmpdir(), 'mcp-tasks-demo-'));
  const journal = join(journalDir, 'journal.json');
  say('Starting the tool server over Streamable HTTP on a free port…');
  const server = start(
    [SERVER, '--transport', 'http', '--port', '0', '--tools', 'demo', '--log-level', 'warn'],
    'none',
  );
  const stopServer = async () => {
    if (server.process.exitCode === null) server.process.kill('SIGINT');
    await server.exited;
  };
  process.once('SIGINT', () => void stopServer().then(() => process.exit(130)));
  try {
    await server.seen(/http:\/\/\S+\/mcp/);
    const url = server.output().match(/http:\/\/\S+\/mcp/)?.[0] ?? '';
    process.stdout.write(`  │ ${url}\n`);
    const client = (...args: string[]) => [CLIENT, ...args, '--url', url, '--journal', journal];

    say('1/2  deploy_service: builds, asks for confirmation (answered from demo/answers.json), rolls out');
    const deploy = start(
      client('call', 'deploy_service', '--args', '{"service":"web","version":"1.4.0"}', '--answers', ANSWERS),
    );
    expect((await deploy.exited) === 0, 'the deploy run did not complete (exit code ≠ 0)');
    // In this order: working → input_required → answered → working again (the rollout) → completed.
    let rest = deploy.output();
    // A first poll may see "working" before the tool has said what it does, so the status message is optional.
    for (const state of [/\] working\b/, /\] input_required/, /answered "Deploy/, /\] working\b/, /\] completed/]) {
      const at = rest.search(state);
      expect(at >= 0, `the deploy run never showed ${state} at this point`);
      rest = rest.slice(at + 1);
    }

    say('2/2  checksum_data over 4 GiB, interrupted with Ctrl-C (SIGINT) once it is under way');
    const long = start(client('call', 'checksum_data', '--args', '{"megabytes":4096}'));
    // Let a few status updates go by so there is something to watch before the interrupt.
    await long.seen(/(\] working: hashing: \d+[^\n]*\n[\s\S]*){3}/);
    long.process.kill('SIGINT');
    expect((await long.exited) === 130, 'the interrupted run did not exit 130');
    const taskId = long.output().match(/^task (\S+) created$/m)?.[1] ?? '';
    const status = start(client('status', taskId));
    expect((await status.exited) === 0, 'status failed');
    expect(new RegExp(`task ${taskId}: cancelled`).test(status.output()), 'the task did not end cancelled');

    say('Stopping the tool server.');
    await stopServer();
    say('Demo finished: one completed task with an answered form, one cancelled task.');
  } finally {
    await stopServer();
    rmSync(journalDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
