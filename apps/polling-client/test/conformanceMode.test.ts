import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from '../src/cliErrors.js';
import { runConformance } from '../src/conformanceMode.js';

/** A bare 2025-era mock like the harness's: initialize, notifications (202), anything else 405. */
async function legacyMock(seen: string[]): Promise<{ url: string; server: Server }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
      seen.push(`${message.method} ${req.headers['mcp-protocol-version'] ?? '-'}`);
      if (message.id === undefined) return void res.writeHead(202).end();
      const result =
        message.method === 'initialize'
          ? {
              protocolVersion: message.params?.protocolVersion,
              capabilities: {},
              serverInfo: { name: 'mock', version: '1' },
            }
          : {};
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

describe('runConformance', () => {
  it('L-C4: takes the era from MCP_CONFORMANCE_PROTOCOL_VERSION: a 2025 version goes straight to initialize', async () => {
    const seen: string[] = [];
    const { url, server } = await legacyMock(seen);
    servers.push(server);
    const env = { MCP_CONFORMANCE_SCENARIO: 'initialize', MCP_CONFORMANCE_PROTOCOL_VERSION: '2025-06-18' };
    expect(await runConformance(url, env)).toBe(0);
    expect(seen.slice(0, 2)).toEqual(['initialize -', 'notifications/initialized 2025-06-18']);
  });

  it('refuses a protocol version it does not speak', async () => {
    await expect(
      runConformance('http://127.0.0.1:9/mcp', { MCP_CONFORMANCE_PROTOCOL_VERSION: '2024-01-01' }),
    ).rejects.toBeInstanceOf(UsageError);
  });
});
