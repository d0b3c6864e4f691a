// Control: the official client against the official server, with exactly the harness the other suites use. If this
// fails, the harness (or the SDK) is at fault, not our packages.
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startOfficialHttpServer } from './fixtures/officialHttpServer.mjs';
import { README_TEXT, README_URI } from './fixtures/officialServer.mjs';
import {
  type OfficialClientOptions,
  officialClientOverHttp,
  officialClientOverStdio,
} from './helpers/officialClient.js';
import { fixturePath } from './helpers/paths.js';
import { describeRejection, rejection } from './helpers/rejection.js';

const cleanups: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function overHttp(options?: OfficialClientOptions): Promise<Client> {
  const server = await startOfficialHttpServer();
  cleanups.push(server.close);
  return officialClientOverHttp(server.url, options);
}

function overStdio(options?: OfficialClientOptions): Promise<Client> {
  return officialClientOverStdio(fixturePath('officialStdioServer.mjs'), [], options);
}

describe.each([
  ['Streamable HTTP', overHttp],
  ['stdio', overStdio],
])('control: official client -> official server over %s', (_name, connect) => {
  it('negotiates 2026-07-28 and serves a tool, a prompt and a resource', async () => {
    const client = await connect();
    cleanups.push(() => client.close());
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['add', 'deploy', 'where']);
    expect(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).toMatchObject({
      structuredContent: { sum: 3 },
    });
    const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Bo' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: 'Say hello to Bo.' });
    const read = await client.readResource({ uri: README_URI });
    expect(read.contents[0]).toMatchObject({ text: README_TEXT });
  });

  it('refuses a 2025 initialize with an error naming 2026-07-28 (the bar knownIssues holds our server to)', async () => {
    const error = await rejection(connect({ negotiation: 'legacy' }));
    expect(describeRejection(error)).toContain('2026-07-28');
  });
});
