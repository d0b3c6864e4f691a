// Installs each peer into a cache outside the repository, at the versions pinned in tooling/peers/.
// A failed install is a skip with its reason (a registry hiccup must not look like a regression of ours).
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCommand } from './processes.js';

export const repoRoot = resolve(import.meta.dirname, '../../..');
export const peersDir = join(repoRoot, 'tooling/peers');
/** The cache (`MCP_TASKS_PEERS_CACHE`, default `~/.cache/mcp-tasks-peers`). */
export const cacheDir = process.env.MCP_TASKS_PEERS_CACHE ?? join(homedir(), '.cache/mcp-tasks-peers');
const goBinary = ['/usr/local/go/bin/go', 'go'].find((g) => g === 'go' || existsSync(g));

function digest(...texts) {
  return createHash('sha256').update(texts.join('\0')).digest('hex').slice(0, 12);
}

/** The `==` pin of one package in a requirements file. */
export function pinnedVersion(requirementsFile, name) {
  const line = readFileSync(join(peersDir, requirementsFile), 'utf8')
    .split('\n')
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}==`));
  return line?.split('==')[1]?.trim();
}

/** A venv with the pinned requirements: `{ ok, python }` or `{ ok: false, reason }`. */
export async function installPython(name, requirementsFile) {
  const requirements = readFileSync(join(peersDir, requirementsFile), 'utf8');
  const venv = join(cacheDir, `${name}-${digest(requirements)}`);
  const python = join(venv, 'bin/python');
  if (existsSync(join(venv, '.installed'))) return { ok: true, python };
  mkdirSync(cacheDir, { recursive: true });
  const made = await runCommand('python3', ['-m', 'venv', venv], { timeoutMs: 120_000 });
  if (made.code !== 0) return { ok: false, reason: `python3 -m venv failed: ${made.stderr.trim().slice(-300)}` };
  const pip = await runCommand(
    python,
    ['-m', 'pip', 'install', '-q', '--disable-pip-version-check', '-r', join(peersDir, requirementsFile)],
    {
      timeoutMs: 300_000,
    },
  );
  if (pip.code !== 0)
    return { ok: false, reason: `pip install -r ${requirementsFile} failed: ${pip.stderr.trim().slice(-400)}` };
  writeFileSync(join(venv, '.installed'), requirements);
  return { ok: true, python };
}

/** Builds tooling/peers/mcpkit (mcpkit's ext/tasks through the Go module proxy): `{ ok, binary }` or a reason. */
export async function installGo() {
  const source = join(peersDir, 'mcpkit');
  const files = [
    'go.mod',
    'go.sum',
    'main.go',
    'serve.go',
    'client.go',
    'fixture.go',
    'mrtr.go',
    'modernCases.go',
    'legacyCases.go',
  ];
  const key = digest(...files.map((f) => (existsSync(join(source, f)) ? readFileSync(join(source, f), 'utf8') : '')));
  const build = join(cacheDir, `mcpkit-${key}`);
  const binary = join(build, 'mcpkit-peer');
  if (existsSync(binary)) return { ok: true, binary };
  mkdirSync(build, { recursive: true });
  cpSync(source, build, { recursive: true });
  const env = { GOPATH: join(cacheDir, 'go'), GOCACHE: join(cacheDir, 'go-build'), GOFLAGS: '-mod=mod' };
  const built = await runCommand(goBinary, ['build', '-o', binary, '.'], { cwd: build, env, timeoutMs: 300_000 });
  if (built.code !== 0) {
    // The first line that names the refusal (e.g. the module proxy's 403) says more than the whole compiler log.
    const lines = built.stderr.trim().split('\n');
    const why = lines.find((l) => /\b(403|404|410)\b|not available|no such host|timeout/i.test(l)) ?? lines.at(-1);
    return { ok: false, reason: `go build of tooling/peers/mcpkit failed: ${why?.trim().slice(0, 300)}` };
  }
  return { ok: true, binary };
}

/** Debian's redis-server, installed with apt-get when missing and we are root: `{ ok, command }` or a reason. */
export async function installRedis() {
  const found = await runCommand('sh', ['-c', 'command -v redis-server'], { timeoutMs: 10_000 });
  if (found.code === 0) return { ok: true, command: found.stdout.trim() };
  if (process.getuid?.() !== 0)
    return { ok: false, reason: 'redis-server is not installed (apt-get install redis-server)' };
  const apt = await runCommand(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server'],
    {
      timeoutMs: 240_000,
    },
  );
  if (apt.code !== 0)
    return { ok: false, reason: `apt-get install redis-server failed: ${apt.stderr.trim().slice(-300)}` };
  return { ok: true, command: 'redis-server' };
}

/** Whether a toolchain is on this machine at all (a missing one is a plain skip). */
export async function hasToolchains() {
  const go = (await runCommand(goBinary, ['version'], { timeoutMs: 20_000 })).code === 0;
  const venv = (await runCommand('python3', ['-m', 'venv', '--help'], { timeoutMs: 20_000 })).code === 0;
  return { go, python: venv };
}
