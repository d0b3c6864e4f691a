#!/usr/bin/env node
/**
 * The README's demo: starts the tool server over HTTP on a free port, runs the polling client through a full task
 * lifecycle (working with status updates → input_required answered from demo/answers.json → working →
 * completed), then a run cancelled with Ctrl-C (SIGINT), stops the server and exits 0. Exits 1 if any step did
 * not behave as shown. Needs both apps built. With `--auth`, the same behind a real authorization server (see
 * `demoAuth.ts`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OidcHarness } from '@mcp-tasks/oidc-harness';
import { freePort, loginAs, protectedServerFlags, startAuthorizationServer } from './demoAuth.js';

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

/** The running tool server (and, with `--auth`, its authorization server), and how to stop them. */
interface Servers {
  readonly url: string;
  readonly harness: OidcHarness | undefined;
  stop(): Promise<void>;
}

async function startServers(auth: boolean): Promise<Servers> {
  let harness: OidcHarness | undefined;
  let flags = ['--port', '0'];
  if (auth) {
    say('Starting a real authorization server (oidc-provider) with two users, alice and bob…');
    harness = await startAuthorizationServer();
    process.stdout.write(`  │ ${harness.issuer}\n`);
    flags = protectedServerFlags(harness.issuer, await freePort());
  }
  say(`Starting the tool server over Streamable HTTP on a free port${auth ? ', accepting only its tokens' : ''}…`);
  const server = start([SERVER, '--transport', 'http', ...flags, '--tools', 'demo', '--log-level', 'warn'], 'none');
  const stop = async () => {
    if (server.process.exitCode === null) server.process.kill('SIGINT');
    await server.exited;
    await harness?.close();
  };
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    await server.seen(/http:\/\/\S+\/mcp/);
  } catch (error) {
    await stop();
    throw error;
  }
  const url = server.output().match(/http:\/\/\S+\/mcp/)?.[0] ?? '';
  process.stdout.write(`  │ ${url}\n`);
  return { url, harness, stop };
}

async function deployStep(client: (...args: string[]) => string[]): Promise<string> {
  say('1/3  deploy_service: builds, asks for confirmation (answered from demo/answers.json), rolls out, in steps');
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
  return deploy.output().match(/^task (\S+) created$/m)?.[1] ?? '';
}

async function migrateStep(client: (...args: string[]) => string[]): Promise<void> {
  say("2/3  migrate_database: durable steps; table 2's lock is busy once, so its step is retried in run 2");
  const migrate = start(
    client('call', 'migrate_database', '--args', '{"database":"shop","tables":3,"tableMegabytes":1}'),
  );
  expect((await migrate.exited) === 0, 'the migration did not complete (exit code ≠ 0)');
  let rest = migrate.output();
  for (const state of [
    /step done: snapshot/,
    /run 2 of the task's work started/,
    /step done: migrate table 2 \(run 2\)/,
  ]) {
    const at = rest.search(state);
    expect(at >= 0, `the migration never showed ${state} at this point`);
    rest = rest.slice(at + 1);
  }
}

async function cancelStep(client: (...args: string[]) => string[]): Promise<void> {
  say('3/3  checksum_data over 4 GiB, interrupted with Ctrl-C (SIGINT) once it is under way');
  const long = start(client('call', 'checksum_data', '--args', '{"megabytes":4096}'));
  // Let a few status updates go by so there is something to watch before the interrupt.
  await long.seen(/(\] working: hashing: \d+[^\n]*\n[\s\S]*){3}/);
  long.process.kill('SIGINT');
  expect((await long.exited) === 130, 'the interrupted run did not exit 130');
  const taskId = long.output().match(/^task (\S+) created$/m)?.[1] ?? '';
  const status = start(client('status', taskId));
  expect((await status.exited) === 0, 'status failed');
  expect(new RegExp(`task ${taskId}: cancelled`).test(status.output()), 'the task did not end cancelled');
}

async function main(): Promise<void> {
  for (const [what, path] of [
    ['tool server', SERVER],
    ['polling client', CLIENT],
  ] as const)
    expect(existsSync(path), `the ${what} is not built (${path}); run pnpm build first`);
  const auth = process.argv.slice(2).includes('--auth');
  const dir = mkdtempSync(join(tmpdir(), 'mcp-tasks-demo-'));
  const servers = await startServers(auth);
  const as = (user: string) => ['--journal', join(dir, `journal-${user}.json`), '--config-dir', join(dir, user)];
  const client =
    (user: string) =>
    (...args: string[]) => [CLIENT, ...args, '--url', servers.url, ...as(user)];
  try {
    const harness = servers.harness;
    if (harness !== undefined) {
      say('Logging in as alice: the client prints a URL for a person; the demo presses Allow as alice');
      const code = await loginAs(harness, 'alice', () =>
        start([CLIENT, 'login', servers.url, ...as('alice').slice(2)]),
      );
      expect(code === 0, 'the login as alice failed');
    }
    const deployed = await deployStep(client('alice'));
    await migrateStep(client('alice'));
    await cancelStep(client('alice'));
    if (harness !== undefined) await bobStep(harness, servers.url, deployed, as, client('bob'));
    say('Stopping the tool server.');
    await servers.stop();
    say(
      `Demo finished: one completed task with an answered form, one with a retried step, one cancelled task${auth ? "; bob could not see alice's task" : ''}.`,
    );
  } finally {
    await servers.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function bobStep(
  harness: OidcHarness,
  url: string,
  taskId: string,
  as: (user: string) => string[],
  client: (...args: string[]) => string[],
): Promise<void> {
  say(`Logging in as bob, who asks for alice's task ${taskId}: tasks are bound to issuer + subject`);
  expect(
    (await loginAs(harness, 'bob', () => start([CLIENT, 'login', url, ...as('bob').slice(2)]))) === 0,
    'bob could not log in',
  );
  const status = start(client('status', taskId));
  expect((await status.exited) === 3, "bob saw alice's task");
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
