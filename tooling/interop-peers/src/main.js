// pnpm interop:peers — installs the peers into a cache outside the repository, runs the matrix, judges it against
// expected.json, writes the results (and with --write-doc, docs/interop.md). Exit 1 only for an unexpected failure.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { judge, loadDivergences, loadExpected } from './expected.js';
import { cacheDir, hasToolchains, installGo, installPython, installRedis, pinnedVersion } from './install.js';
import { peers } from './peers.js';
import { stopAll } from './processes.js';
import { cellKey, runPeer } from './runCells.js';
import { writeDoc } from './writeDoc.js';

const { values } = parseArgs({
  options: {
    'write-doc': { type: 'boolean', default: false },
    only: { type: 'string', multiple: true },
    // The bound of the run once the peers are installed (installs have their own: 5 min each, in parallel).
    'deadline-ms': { type: 'string', default: '600000' },
  },
});
const log = (line) => console.log(`interop:peers: ${line}`);
const started = Date.now();
let deadline;
function startDeadline() {
  deadline = setTimeout(async () => {
    log(`FAILED: the run passed its ${values['deadline-ms']} ms bound (a hang); stopping every process`);
    await stopAll();
    process.exit(1);
  }, Number(values['deadline-ms']));
}
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => stopAll().then(() => process.exit(130)));

async function installAll() {
  const tools = await hasToolchains();
  const missing = (what) => Promise.resolve({ ok: false, reason: `${what} is not on this machine` });
  const [go, fastmcp, mcp1, redis] = await Promise.all([
    tools.go ? installGo() : missing('go'),
    tools.python ? installPython('fastmcp-tasks', 'python/requirements-fastmcp.txt') : missing('python3 -m venv'),
    tools.python ? installPython('mcp1', 'python/requirements-mcp1.txt') : missing('python3 -m venv'),
    installRedis(),
  ]);
  return { go, fastmcp, mcp1, redis };
}

const versions = {
  mcpkit: 'github.com/panyam/mcpkit/ext/tasks v0.5.2 (tooling/peers/mcpkit/go.mod)',
  'fastmcp-tasks': `fastmcp-tasks ${pinnedVersion('python/requirements-fastmcp.txt', 'fastmcp-tasks')} (mcp ${pinnedVersion('python/requirements-fastmcp.txt', 'mcp')}, pydocket ${pinnedVersion('python/requirements-fastmcp.txt', 'pydocket')})`,
  'mcp-python-1.x': `mcp ${pinnedVersion('python/requirements-mcp1.txt', 'mcp')}`,
};

try {
  log(`installing the peers into ${cacheDir}`);
  const install = await installAll();
  startDeadline();
  const cells = [];
  const skipped = [];
  for (const peer of peers) {
    if (values.only && !values.only.includes(peer.id)) continue;
    const failed = peer.needs.filter((need) => !install[need].ok);
    if (failed.length) {
      const reason = failed.map((need) => install[need].reason).join('; ');
      log(`SKIPPED ${peer.id}: ${reason}`);
      skipped.push({ peer: peer.id, reason });
      continue;
    }
    log(`${peer.label}: ${versions[peer.id]}`);
    cells.push(...(await runPeer(peer, install, log)));
  }
  const expected = loadExpected();
  const verdict = judge(cells, expected, cellKey);
  const results = {
    generatedAt: new Date().toISOString(),
    node: process.version,
    versions,
    skipped,
    cells,
    durationMs: Date.now() - started,
  };
  mkdirSync(cacheDir, { recursive: true });
  writeFileSync(join(cacheDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  if (values['write-doc']) writeDoc(results, expected, cellKey, loadDivergences());
  const passed = cells.filter((c) => c.ok).length;
  log(
    `${cells.length} cells: ${passed} passed, ${verdict.known.length} failed as known divergences, ${verdict.unexpected.length} failed unexpectedly`,
  );
  for (const { cell } of verdict.fixed) log(`now passes (take it out of expected.json): ${cellKey(cell)}`);
  for (const cell of verdict.unexpected) log(`UNEXPECTED FAILURE: ${cellKey(cell)}: ${cell.detail}`);
  log(`results in ${join(cacheDir, 'results.json')}`);
  await stopAll();
  clearTimeout(deadline);
  console.log(`interop-peers: ${passed + verdict.known.length} passed, ${verdict.unexpected.length} failed`);
  process.exit(verdict.unexpected.length ? 1 : 0);
} catch (error) {
  log(`FAILED: ${error.stack ?? error}`);
  await stopAll();
  process.exit(1);
}
