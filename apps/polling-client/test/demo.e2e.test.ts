/**
 * `pnpm demo` as a newcomer runs it: the root script (a build that says what it compiles on stderr, then the demo)
 * shows the demo's steps in order on stdout and no build logs.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { killAll, track } from './processes.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

afterEach(killAll);

it('the root "demo" script prints the demo in order and no build logs', { timeout: 120_000 }, async () => {
  const { packageManager } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    packageManager: string;
  };
  // `pnpm demo` exactly: through the pnpm running these tests when there is one, else the pinned one via npx.
  const execPath = process.env.npm_execpath;
  const [file, args] =
    execPath !== undefined && /pnpm/.test(execPath)
      ? [process.execPath, [execPath, 'demo']]
      : ['npx', ['-y', packageManager, 'demo']];
  const demo = track(spawn(file, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] }));
  const code = await demo.exited();
  const out = demo.stdout();
  expect(code, `${out}\n${demo.stderr()}`).toBe(0);
  // stderr carries the build's progress lines, and npm itself may warn about the machine's npm config when the
  // demo goes through npx; nothing else is said there.
  const progress = demo.stderr().replace(/^npm warn .*\n/gm, '');
  expect(progress).toMatch(/^demo: building the tool server, the polling client .*\n/);
  expect(progress).toMatch(/^demo: (everything was already built|built \d+ packages? in \d+ s; starting)$/m);
  expect(progress.replace(/^demo: .*\n/gm, '')).toBe('');
  let rest = out;
  for (const step of [
    /Starting the tool server/,
    /│ http:\/\/127\.0\.0\.1:\d+\/mcp/,
    /1\/3 {2}deploy_service/,
    /│ task \S+ created/,
    /\] working\b/,
    /\] input_required/,
    /answered "Deploy web@1\.4\.0/,
    /\] working\b/,
    /\] completed/,
    /Deployed web@1\.4\.0 to staging/,
    /2\/3 {2}migrate_database/,
    /step done: migrate table 2 \(run 2\)/,
    /Migrated 3 tables of shop/,
    /3\/3 {2}checksum_data/,
    /\] working: hashing: /,
    /cancellation of task \S+ requested/,
    /Demo finished/,
  ]) {
    const at = rest.search(step);
    expect(at, `${step} after what came before, in:\n${out}`).toBeGreaterThanOrEqual(0);
    rest = rest.slice(at + 1);
  }
  // The build before it is quiet: no turbo command line or summary, no per-package task lines, no compiler. Before
  // the demo's first line there is only pnpm's echo of the one short script command.
  expect(out).not.toMatch(/turbo|Tasks: |Cached: |cache (hit|miss)|:build: |> tsc|\btsc -b\b/i);
  const before = out
    .slice(0, out.search(/Starting the tool server/))
    .trim()
    .split('\n');
  expect(
    before.filter(
      (line) => line !== '' && !/^> (mcp-tasks@ demo |node apps\/polling-client\/demo\/run\.js$)/.test(line),
    ),
  ).toEqual([]);
});

it('A-S8: demo --auth logs alice in at a real authorization server, runs the demo, and bob cannot see her task', {
  timeout: 120_000,
}, async () => {
  const demo = track(
    spawn(process.execPath, [join(root, 'apps/polling-client/dist/demo.js'), '--auth'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const code = await demo.exited();
  const out = demo.stdout();
  expect(code, `${out}\n${demo.stderr()}`).toBe(0);
  let rest = out;
  for (const step of [
    /Starting a real authorization server/,
    /accepting only its tokens/,
    /Logging in as alice/,
    /Open this URL in a browser to log in/,
    /logged in to http:\/\/127\.0\.0\.1:\d+\/mcp at http:\/\/127\.0\.0\.1:\d+ \(scope: deploy\)/,
    /\] completed/,
    /cancellation of task \S+ requested/,
    /Logging in as bob/,
    /does not know task/,
    /bob could not see alice's task/,
  ]) {
    const at = rest.search(step);
    expect(at, `${step} after what came before, in:\n${out}`).toBeGreaterThanOrEqual(0);
    rest = rest.slice(at + 1);
  }
});
