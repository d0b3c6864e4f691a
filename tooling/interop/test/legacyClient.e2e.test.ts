// The official client (@modelcontextprotocol/client 2.x) in legacy negotiation, i.e. a 2025-era client that starts
// with `initialize`, against our tool server over Streamable HTTP and stdio: both eras are served on one endpoint.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFICIAL_TARGETS, type OfficialTarget } from './helpers/officialClientTargets.js';

describe.each(OFFICIAL_TARGETS)('a 2025-era official client -> our tool server over %s', (_name, startTarget) => {
  let target: OfficialTarget;
  let client: Client;
  beforeAll(async () => {
    target = await startTarget('conformance');
    client = await target.connect({ negotiation: 'legacy' });
  });
  afterAll(() => target?.close());

  it('L-S1, L-S2: initialize negotiates 2025-11-25 with the experimental tasks capability', async () => {
    expect(client.getProtocolEra()).toBe('legacy');
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {}, tasks: {} });
    expect(client.getServerCapabilities()?.extensions).toBeUndefined();
  });

  it('lists tools and calls a plain one, with 2025 result shapes', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['test_simple_text', 'greet']));
    const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    expect(result).not.toHaveProperty('resultType');
  });

  it('gets a prompt and reads a resource', async () => {
    const prompt = await client.getPrompt({ name: 'test_simple_prompt' });
    expect(prompt.messages.length).toBeGreaterThan(0);
    const read = await client.readResource({ uri: 'test://static-text' });
    expect(JSON.stringify(read.contents)).toContain('static text resource');
  });
});
