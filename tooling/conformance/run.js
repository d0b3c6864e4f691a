#!/usr/bin/env node
// Runs the pinned official MCP conformance suite against this project's sample apps and prints one summary table.
//
// The project runs on Node 20; the harness needs Node 22, so it runs on the binary of the `node` npm package
// installed in this folder. Verdicts come from each scenario's checks.json (the harness's own exit code is 0 for a
// failed single scenario), so the table is the source of truth: any FAILURE fails the run, and for client scenarios
// any WARNING too (the harness treats a client warning as a failure).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const node22 = join(here, 'node_modules/node/bin/node');
const harness = join(here, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const toolServer = join(root, 'apps/tool-server/dist/main.js');
const pollingClient = join(root, 'apps/polling-client/dist/main.js');

const TASK_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];
const HEADER_SCENARIOS = ['http-header-validation', 'http-custom-header-server-validation'];
// The client is measured on the referee's whole 2026-07-28 client requirement set (the 32 scored scenarios, 25 of
// them auth/*, plus the unscored extension auth flows and json-schema-2020-12-preservation), in one harness run.
const CLIENT_REQUIREMENTS = '2026-07-28';
const LEGACY_CLIENT_SCENARIOS = [
  'initialize',
  'tools_call',
  'elicitation-sep1034-client-defaults',
  'sse-retry',
  // The authorization flow on the 2025-11-25 wire (initialize and sessions after the token).
  'auth/metadata-default',
  'auth/basic-cimd',
  'auth/scope-step-up',
  'auth/token-endpoint-auth-basic',
  'auth/pre-registration',
];
// 2025-03-26 servers without protected-resource metadata: the authorization server is the MCP server's origin.
const AUTH_2025_03_26_SCENARIOS = [
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
];

for (const [what, path] of [
  ['Node 22 binary (tooling/conformance install)', node22],
  ['conformance harness', harness],
  ['tool server build', toolServer],
  ['polling client build', pollingClient],
]) {
  if (!existsSync(path)) {
    console.error(`conformance: missing ${what}: ${path}. Run the build first (pnpm conformance does).`);
    process.exit(2);
  }
}

/** Runs a command, streaming its output with a prefix; resolves with the exit code. */
function run(cmd, args, { quiet = false } = {}) {
  return new Promise((resolveRun) => {
    const child = spawn(cmd, args, { cwd: here, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk) => {
      output += chunk;
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('close', (code) => {
      if (!quiet || code !== 0) process.stderr.write(output.slice(-4000));
      resolveRun(code ?? 1);
    });
  });
}

/** Starts the tool server on a free port and resolves with its URL (printed on stderr when ready). */
function startToolServer() {
  return new Promise((resolveStart, rejectStart) => {
    const child = spawn(
      process.execPath,
      [toolServer, '--transport', 'http', '--port', '0', '--tools', 'conformance', '--log-level', 'error'],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let buffered = '';
    const timer = setTimeout(() => rejectStart(new Error(`tool server did not print its URL:\n${buffered}`)), 15_000);
    child.stderr.on('data', (chunk) => {
      buffered += chunk;
      const match = /(http:\/\/[^\s]+\/mcp)/.exec(buffered);
      if (match) {
        clearTimeout(timer);
        resolveStart({ url: match[1], child });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      rejectStart(new Error(`tool server exited early (${code}):\n${buffered}`));
    });
  });
}

/** Reads every checks.json under `dir` into rows of { scenario, passed, failed, warnings, skipped, failures }. */
function readResults(dir, kind, run, prefix = '') {
  const rows = [];
  for (const entry of readdirSync(dir).sort()) {
    const file = join(dir, entry, 'checks.json');
    if (!existsSync(file)) {
      // Scenario names with a slash (auth/…) are written one folder down.
      if (statSync(join(dir, entry)).isDirectory()) rows.push(...readResults(join(dir, entry), kind, run, `${entry}/`));
      continue;
    }
    const scenario = prefix + entry.replace(/^(server|client)-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    const checks = JSON.parse(readFileSync(file, 'utf8'));
    const count = (status) => checks.filter((c) => c.status === status).length;
    const failures = checks
      .filter((c) => c.status === 'FAILURE' || (kind === 'client' && c.status === 'WARNING'))
      .map((c) => `${c.id}: ${c.errorMessage ?? c.status}`);
    rows.push({
      kind,
      run,
      scenario,
      passed: count('SUCCESS'),
      failed: count('FAILURE'),
      warnings: count('WARNING'),
      skipped: count('SKIPPED'),
      failures,
    });
  }
  return rows;
}

// `--only client` or `--only server` runs one side (the tool server still starts: it is cheap); the default is both.
const onlyAt = process.argv.indexOf('--only');
const only = onlyAt > 0 ? process.argv[onlyAt + 1] : undefined;
if (only !== undefined && only !== 'client' && only !== 'server') {
  console.error(`conformance: --only takes client or server, not ${only}`);
  process.exit(2);
}

const results = mkdtempSync(join(tmpdir(), 'mcp-tasks-conformance-'));
const rows = [];
const { url, child } = await startToolServer();
try {
  console.error(`conformance: tool server at ${url}`);
  const serverRuns = [
    // No flags: the harness's default active suite, on the 2025-11-25 wire (initialize, sessions).
    ['active-2025-11-25', []],
    ['server-session-lifecycle', ['--scenario', 'server-session-lifecycle']],
    ['requirements-2026-07-28', ['--requirements', '2026-07-28']],
    ...TASK_SCENARIOS.map((s) => [s, ['--scenario', s]]),
    ...HEADER_SCENARIOS.map((s) => [s, ['--scenario', s, '--spec-version', '2026-07-28', '--force']]),
  ];
  for (const [label, args] of only === 'client' ? [] : serverRuns) {
    const out = join(results, `server-${label}`);
    await run(node22, [harness, 'server', '--url', url, ...args, '-o', out], { quiet: true });
    rows.push(...(existsSync(out) ? readResults(out, 'server', label) : [missing('server', label)]));
  }
  const clientRuns = [
    [`requirements-${CLIENT_REQUIREMENTS}`, undefined, undefined],
    ...LEGACY_CLIENT_SCENARIOS.map((scenario) => [`${scenario}@2025-11-25`, scenario, '2025-11-25']),
    ...AUTH_2025_03_26_SCENARIOS.map((scenario) => [`${scenario}@2025-03-26`, scenario, '2025-03-26']),
  ];
  for (const [label, scenario, specVersion] of only === 'server' ? [] : clientRuns) {
    const out = join(results, `client-${label}`);
    // The requirements run starts every client scenario at once; on a loaded 2-core machine the harness's default
    // 30 s per client is not enough to start ~40 Node processes, so each gets two minutes.
    const args = ['client', '--command', `${process.execPath} ${pollingClient} conformance`, '--timeout', '120000'];
    if (scenario === undefined) args.push('--requirements', CLIENT_REQUIREMENTS);
    else args.push('--scenario', scenario);
    if (specVersion !== undefined) args.push('--spec-version', specVersion);
    const code = await run(node22, [harness, ...args, '-o', out], { quiet: true });
    const found = existsSync(out) ? readResults(out, 'client', label) : [];
    if (found.length === 0) found.push(missing('client', label));
    if (code !== 0 && scenario === undefined) {
      // A requirements run's exit code covers its scored scenarios, a client's exit code and timeout included.
      found.push({ ...missing('client', label), failures: [`harness exited with ${code}`] });
    } else if (code !== 0 && scenario !== 'http-invalid-tool-headers') {
      for (const row of found) row.failures.push(`harness exited with ${code}`);
    }
    rows.push(...found);
  }
} finally {
  child.kill('SIGTERM');
  rmSync(results, { recursive: true, force: true });
}

function missing(kind, scenario) {
  return {
    kind,
    run: scenario,
    scenario,
    passed: 0,
    failed: 1,
    warnings: 0,
    skipped: 0,
    failures: ['no results written'],
  };
}

const header = ['kind', 'run', 'scenario', 'passed', 'failed', 'warnings', 'skipped'];
const table = [
  header,
  ...rows.map((r) => [
    r.kind,
    r.run === r.scenario ? 'single' : r.run,
    r.scenario,
    r.passed,
    r.failed,
    r.warnings,
    r.skipped,
  ]),
];
const widths = header.map((_, i) => Math.max(...table.map((line) => String(line[i]).length)));
for (const line of table) console.log(line.map((cell, i) => String(cell).padEnd(widths[i] ?? 0)).join('  '));
const bad = rows.filter((r) => r.failures.length > 0);
const totals = rows.reduce((t, r) => ({ passed: t.passed + r.passed, failed: t.failed + r.failed }), {
  passed: 0,
  failed: 0,
});
console.log(`\n${rows.length} scenario runs, ${totals.passed} checks passed, ${totals.failed} failed`);
for (const row of bad) console.log(`FAIL ${row.kind} ${row.scenario}\n  ${row.failures.join('\n  ')}`);
process.exit(bad.length > 0 ? 1 : 0);
