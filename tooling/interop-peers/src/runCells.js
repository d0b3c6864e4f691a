// Runs one peer's rows: our client and the transcripts replay against each of its servers, its client against ours.
import { join } from 'node:path';
import { repoRoot } from './install.js';
import { runOurClient } from './ourClient.js';
import { runCommand, startProcess, stopProcess, waitForOutput } from './processes.js';

const toolServer = join(repoRoot, 'apps/tool-server/dist/main.js');
const replayCli = join(repoRoot, 'packages/transcripts/bin/mcp-tasks-transcripts.js');
const ourStdio = `${process.execPath} ${toolServer} --transport stdio --tools conformance --log-level error`;

/** The id of one cell of the matrix. */
export function cellKey(cell) {
  const transport = cell.backend ? `${cell.transport} (${cell.backend})` : cell.transport;
  return [cell.peer, cell.direction, transport, cell.era, cell.case].join(' | ');
}

const shellQuote = (s) => `'${String(s).replaceAll("'", "'\\''")}'`;

/** Parses the JSON lines a peer's client printed; a line that is not JSON is ignored. */
export function parseCaseLines(stdout) {
  const rows = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const row = JSON.parse(line);
      if (typeof row.case === 'string' && typeof row.ok === 'boolean') rows.push(row);
    } catch {}
  }
  return rows;
}

/** One cell per replayed scenario: pass when none of its expectations failed. */
export function replayCells(report) {
  const byScenario = new Map();
  for (const r of report.results) {
    const entry = byScenario.get(r.scenario) ?? { fails: [], skips: 0, passes: 0 };
    if (r.outcome === 'fail') entry.fails.push(`${r.expectation}: ${r.reason ?? ''}`.slice(0, 300));
    else if (r.outcome === 'skip') entry.skips += 1;
    else entry.passes += 1;
    byScenario.set(r.scenario, entry);
  }
  return [...byScenario].map(([scenario, e]) => ({
    case: scenario,
    ok: e.fails.length === 0,
    detail: e.fails.length
      ? e.fails.slice(0, 3).join(' / ')
      : `${e.passes} passed${e.skips ? `, ${e.skips} skipped` : ''}`,
  }));
}

async function replay(target) {
  const args = [replayCli, 'replay', '--json', '--expiry-budget-ms', '3000'];
  args.push(
    ...(target.url
      ? ['--url', target.url]
      : ['--stdio', [target.stdio.command, ...target.stdio.args].map(shellQuote).join(' ')]),
  );
  const env = target.stdio?.env;
  const run = await runCommand(process.execPath, args, { timeoutMs: 240_000, env });
  try {
    return replayCells(JSON.parse(run.stdout));
  } catch {
    return [
      { case: 'replay', ok: false, detail: `the replay did not report (exit ${run.code}): ${run.stderr.slice(-300)}` },
    ];
  }
}

async function startOurHttpServer() {
  const proc = startProcess(process.execPath, [
    toolServer,
    '--transport',
    'http',
    '--port',
    '0',
    '--tools',
    'conformance',
    '--log-level',
    'info',
  ]);
  const [, url] = await waitForOutput(proc, /(http:\/\/\S+\/mcp)/);
  return { url, proc };
}

function rows(base, results) {
  return results.map((r) => ({ ...base, case: r.case, ok: r.ok, detail: r.detail }));
}

/** Our client and the replay against each of the peer's servers. */
async function againstTheirServers(peer, install, log) {
  const cells = [];
  for (const server of peer.servers) {
    const base = { peer: peer.id, transport: server.transport, backend: server.backend, era: server.era };
    let started;
    try {
      started = await server.start(install);
    } catch (error) {
      cells.push({
        ...base,
        direction: 'ours → theirs',
        case: 'start',
        ok: false,
        detail: `server did not start: ${error.message.slice(0, 300)}`,
      });
      continue;
    }
    try {
      const target = started.url ? { url: started.url } : started.stdio;
      log(
        `  ${peer.id} server ${server.transport}${server.backend ? ` (${server.backend})` : ''} ${server.era}: our client`,
      );
      cells.push(...rows({ ...base, direction: 'ours → theirs' }, await runOurClient(target, server.era)));
      if (server.era === '2026') {
        log(`  ${peer.id} server ${server.transport}: transcripts replay`);
        cells.push(
          ...rows(
            { ...base, direction: 'replay → theirs' },
            await replay(started.url ? { url: started.url } : started),
          ),
        );
      }
    } finally {
      for (const proc of started.procs) await stopProcess(proc);
    }
  }
  return cells;
}

/** The peer's client against our tool server. */
async function theirClients(peer, install, log) {
  const cells = [];
  for (const client of peer.clients) {
    const base = { peer: peer.id, direction: 'theirs → ours', transport: client.transport, era: client.era };
    const ours = client.transport === 'stdio' ? undefined : await startOurHttpServer();
    try {
      log(`  ${peer.id} client ${client.transport} (${client.era})`);
      const [command, ...args] = client.command(install, ours ? { url: ours.url } : { stdio: ourStdio });
      const run = await runCommand(command, args, { timeoutMs: 240_000, env: { PYTHONWARNINGS: 'ignore' } });
      const results = parseCaseLines(run.stdout);
      if (results.length === 0)
        results.push({ case: 'run', ok: false, detail: `no report (exit ${run.code}): ${run.stderr.slice(-300)}` });
      cells.push(...rows(base, results));
    } finally {
      if (ours) await stopProcess(ours.proc);
    }
  }
  return cells;
}

/** Every cell of one installed peer. */
export async function runPeer(peer, install, log) {
  return [...(await againstTheirServers(peer, install, log)), ...(await theirClients(peer, install, log))];
}
