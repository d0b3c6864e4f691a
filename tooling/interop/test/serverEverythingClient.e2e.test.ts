// Our McpClient (@mcp-tasks/client + @mcp-tasks/transport-stdio) against the reference "everything" server
// (@modelcontextprotocol/server-everything, pinned; 2025-era, SDK v1) over stdio, for what the CLI does not show:
// `connect()` telling the era, progress notifications of a 2025 tool call, log messages after `logging/setLevel`,
// and the server's elicitation answered by the client's handler.

import { fileURLToPath } from 'node:url';
import { McpClient } from '@mcp-tasks/client';
import type { TransportNotification } from '@mcp-tasks/protocol';
import { StdioClientTransport } from '@mcp-tasks/transport-stdio';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const EVERYTHING = fileURLToPath(new URL('../node_modules/.bin/mcp-server-everything', import.meta.url));

describe('our McpClient -> server-everything over stdio (auto era)', () => {
  let client: McpClient;
  const notifications: TransportNotification[] = [];
  const elicited: string[] = [];
  beforeAll(async () => {
    const transport = await StdioClientTransport.spawn({ command: EVERYTHING, stderr: 'ignore', closeGraceMs: 1000 });
    client = new McpClient({
      transport,
      clientInfo: { name: 'mcp-tasks-interop', version: '0.0.0' },
      onNotification: (notification) => notifications.push(notification),
      handlers: {
        elicitation: async (params) => {
          elicited.push(params.message);
          return { action: 'accept', content: { name: 'Grace Hopper', check: true } };
        },
      },
    });
  });
  afterAll(async () => {
    await client.close();
  });

  it('L-C2, L-C5: connect() falls back from server/discover to initialize and reports the 2025 era', async () => {
    const connection = await client.connect();
    expect(connection.era).toBe('legacy');
    expect(connection.protocolVersion).toBe('2025-11-25');
    if (connection.era !== 'legacy') throw new Error('expected a 2025-era connection');
    expect(connection.initialize.serverInfo.name).toBe('mcp-servers/everything');
  });

  it('L-C16: passes the progress of a 2025 tools/call to onProgress, in order, before the result', async () => {
    const progress: number[] = [];
    const result = await client.callTool(
      'trigger-long-running-operation',
      { duration: 0.3, steps: 3 },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(JSON.stringify(result.content)).toContain('Long running operation completed');
    expect(progress).toEqual([1, 2, 3]);
  });

  it('delivers notifications/message after logging/setLevel and toggle-simulated-logging', async () => {
    await client.request('logging/setLevel', { level: 'debug' });
    const toggled = await client.callTool('toggle-simulated-logging', {});
    expect(JSON.stringify(toggled.content)).toContain('Started simulated');
    await vi.waitFor(
      () => expect(notifications.some((notification) => notification.method === 'notifications/message')).toBe(true),
      { timeout: 15_000, interval: 50 },
    );
    await client.callTool('toggle-simulated-logging', {});
  });

  it("L-C12, L-C15: answers the server's elicitation/create with the elicitation handler", async () => {
    const result = await client.callTool('trigger-elicitation-request', {});
    expect(elicited).toEqual(['Please provide inputs for the following fields:']);
    expect(JSON.stringify(result.content)).toContain('Grace Hopper');
  });
});
