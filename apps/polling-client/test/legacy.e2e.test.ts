/**
 * The built CLI against servers of both eras with no flag (a 2025-era stdio fixture and the 2026-07-28 tool
 * server), and `--protocol` pinning a version.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { builtArtefacts, killAll, runClient, startServer } from './processes.js';

const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/legacyStdioServer.mjs');
const legacy = ['--stdio', `${process.execPath} ${FIXTURE}`, '--verbose'];

beforeAll(() => {
  const missing = builtArtefacts();
  if (missing.length > 0) throw new Error(`build first (pnpm build); missing ${missing.join(', ')}`);
});
afterEach(killAll);

describe('both protocol eras, no flag', () => {
  it('L-C2, L-C8: a 2025-era stdio server: discover is refused, initialize runs, the tool is listed without a 2026 envelope', async () => {
    const result = await runClient(['tools', ...legacy]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^echo\s+Echoes its text$/m);
    expect(result.stderr).toContain('protocol: MCP 2025-11-25, 2025 era (initialize handshake; detected)');
    const got = [...result.stderr.matchAll(/^got (\S+)/gm)].map((m) => m[1]);
    expect(got).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list']);
    // L-C8: no 2026-07-28 envelope after the handshake.
    expect(result.stderr).toMatch(/^got tools\/list \{\}$/m);
  });

  it('L-C2: a 2025-era server that ignores the probe is reached after half of --connect-timeout', async () => {
    // The probe waits out half the timeout (3 s); the other half is ample for initialize from a server already up.
    const result = await runClient(['tools', ...legacy, '--connect-timeout', '6'], { FIXTURE_SILENT: '1' });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^echo\s/m);
    const got = [...result.stderr.matchAll(/^got (\S+)/gm)].map((m) => m[1]);
    expect(got).toEqual([
      'server/discover',
      'notifications/cancelled',
      'initialize',
      'notifications/initialized',
      'tools/list',
    ]);
  });

  it('L-C17: a call to a 2025-era server prints its result', async () => {
    const result = await runClient(['call', 'echo', '--args', '{"text":"hi"}', ...legacy, '--json']);
    expect(result.code).toBe(0);
    // Normalised like any result without resultType (the CallToolResult type carries it).
    expect(JSON.parse(result.stdout)).toEqual({
      resultType: 'complete',
      content: [{ type: 'text', text: 'echo: hi' }],
    });
  });

  it('--protocol 2025-06-18 skips the probe and negotiates that version', async () => {
    const result = await runClient(['tools', ...legacy, '--protocol', '2025-06-18']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      'protocol: MCP 2025-06-18, 2025 era (initialize handshake; pinned with --protocol)',
    );
    expect(result.stderr).not.toContain('got server/discover');
  });

  it('a 2026-07-28 server is detected with server/discover and used as before', async () => {
    const server = await startServer('stdio');
    const result = await runClient(['tools', ...server.flags, '--verbose']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('protocol: MCP 2026-07-28, 2026-07-28 era (detected)');
    expect(result.stdout).toMatch(/checksum_data/);
  });
});
