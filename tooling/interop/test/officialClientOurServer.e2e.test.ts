// The official client (@modelcontextprotocol/client 2.x, pinned to 2026-07-28) against our tool server
// (apps/tool-server, conformance tool set), over Streamable HTTP and stdio: discover, list tools, call synchronous
// tools, get a prompt, read a resource.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OFFICIAL_TARGETS, type OfficialTarget } from './helpers/officialClientTargets.js';

describe.each(OFFICIAL_TARGETS)('official client -> our tool server over %s', (_name, startTarget) => {
  let target: OfficialTarget;
  let client: Client;
  beforeAll(async () => {
    target = await startTarget('conformance');
    client = await target.connect();
  });
  afterAll(() => target?.close());

  it('negotiates 2026-07-28 through server/discover and sees the Tasks extension', async () => {
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(client.getServerCapabilities()?.extensions).toHaveProperty(['io.modelcontextprotocol/tasks']);
    expect(client.getServerVersion()?.name).toEqual(expect.any(String));
  });

  it('lists tools in the fixture order and calls synchronous ones', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names[0]).toBe('test_simple_text');
    expect(names).toEqual(expect.arrayContaining(['greet', 'slow_compute', 'failing_job']));
    expect(await client.callTool({ name: 'test_simple_text', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
    });
    expect(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({
      content: [{ type: 'text', text: 'Hello, Ada!' }],
    });
  });

  it('gets a tool error as a result (isError), not a rejection', async () => {
    const result = await client.callTool({ name: 'test_error_handling', arguments: {} });
    expect(result.isError).toBe(true);
  });

  it('gets a prompt with arguments', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toContain('test_prompt_with_arguments');
    const prompt = await client.getPrompt({
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'alpha', arg2: 'beta' },
    });
    const content = prompt.messages[0]?.content;
    expect(content?.type).toBe('text');
    expect(content?.type === 'text' ? content.text : '').toMatch(/alpha[\s\S]*beta|beta[\s\S]*alpha/);
  });

  it('lists and reads a text resource', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain('test://static-text');
    const read = await client.readResource({ uri: 'test://static-text' });
    expect(read.contents).toEqual([
      expect.objectContaining({ uri: 'test://static-text', mimeType: 'text/plain', text: expect.any(String) }),
    ]);
  });

  it('gets a synchronous result from slow_compute when it does not declare the Tasks extension', async () => {
    const result = await client.callTool({ name: 'slow_compute', arguments: { seconds: 0, label: 'interop' } });
    expect(result.isError ?? false).toBe(false);
    expect(result.content[0]).toMatchObject({ type: 'text' });
  });

  it("also negotiates 2026-07-28 with the SDK's probing 'auto' mode", async () => {
    const probing = await target.connect({ negotiation: 'auto' });
    expect(probing.getProtocolEra()).toBe('modern');
    expect(await probing.callTool({ name: 'greet', arguments: { name: 'Bo' } })).toMatchObject({
      content: [{ type: 'text', text: 'Hello, Bo!' }],
    });
  });
});
