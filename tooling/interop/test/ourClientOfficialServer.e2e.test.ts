// Our client (@mcp-tasks/client) against the official SDK's server (@modelcontextprotocol/server 2.x, 2026-07-28
// only), over Streamable HTTP and stdio: discover, list tools, call a synchronous tool, get a prompt, read a resource.
import { ProtocolError } from '@mcp-tasks/protocol';
import { StdioClientTransport } from '@mcp-tasks/transport-stdio';
import { describe, expect, it } from 'vitest';
import { startOfficialHttpServer } from './fixtures/officialHttpServer.mjs';
import { OFFICIAL_SERVER_INFO, README_TEXT, README_URI } from './fixtures/officialServer.mjs';
import { type Connect, ourClientPerSuite } from './helpers/ourClient.js';
import { httpTransportTo } from './helpers/overHttp.js';
import { fixturePath } from './helpers/paths.js';

const overHttp =
  (responseMode: 'auto' | 'sse', onNode = false): Connect =>
  async () =>
    httpTransportTo(await startOfficialHttpServer({ responseMode }), onNode);

const overStdio: Connect = async () => ({
  transport: await StdioClientTransport.spawn({
    command: process.execPath,
    args: [fixturePath('officialStdioServer.mjs')],
    closeGraceMs: 1000,
  }),
});

describe.each([
  ['Streamable HTTP', overHttp('auto')],
  ['Streamable HTTP with every response as SSE', overHttp('sse')],
  ['Streamable HTTP with every response as SSE, on nodeHttpFetch', overHttp('sse', true)],
  ['stdio', overStdio],
])('our McpClient -> official server over %s', (_name, connect) => {
  const ours = ourClientPerSuite(connect);

  it('discovers the server: 2026-07-28 offered, serverInfo reported', async () => {
    const discovered = await ours.mcp.discover();
    expect(discovered.supportedVersions).toContain('2026-07-28');
    expect(discovered.capabilities.tools).toBeDefined();
    expect(ours.mcp.protocolVersion).toBe('2026-07-28');
    expect(discovered._meta?.['io.modelcontextprotocol/serverInfo']).toMatchObject(OFFICIAL_SERVER_INFO);
  });

  it('lists tools and calls the synchronous one', async () => {
    const tools = await ours.mcp.listAllTools();
    expect(tools.map((tool) => tool.name)).toEqual(['add', 'deploy', 'where']);
    expect(tools[0]?.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' } } });
    const result = await ours.mcp.callTool('add', { a: 2, b: 3 });
    expect(result.isError ?? false).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: '5' }]);
    expect(result.structuredContent).toEqual({ sum: 5 });
  });

  it('answers an official input_required round through its elicitation handler (MRTR)', async () => {
    const result = await ours.mcp.callTool('deploy', { env: 'staging' });
    expect(result.content).toEqual([{ type: 'text', text: 'deployed to staging' }]);
    expect(ours.elicited).toEqual([expect.objectContaining({ message: 'Deploy to staging?' })]);
  });

  it('passes the official server checks for x-mcp-header arguments (Mcp-Param-Region over HTTP)', async () => {
    const tools = await ours.mcp.listAllTools();
    expect(tools.find((tool) => tool.name === 'where')?.inputSchema).toMatchObject({
      properties: { region: { 'x-mcp-header': 'Region' } },
    });
    const result = await ours.mcp.callTool('where', { region: 'eu-west 1' });
    expect(result.content).toEqual([{ type: 'text', text: 'region=eu-west 1' }]);
  });

  it('reports a tool-level error for bad arguments as isError, not a protocol failure', async () => {
    const result = await ours.mcp.callTool('add', { a: 'two', b: 3 });
    expect(result.isError).toBe(true);
  });

  it('lists and gets a prompt', async () => {
    const { prompts } = await ours.mcp.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['greet']);
    const prompt = await ours.mcp.getPrompt('greet', { name: 'Ada' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Say hello to Ada.' } }]);
  });

  it('lists and reads a resource', async () => {
    const { resources } = await ours.mcp.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([README_URI]);
    const read = await ours.mcp.readResource(README_URI);
    expect(read.contents).toEqual([{ uri: README_URI, mimeType: 'text/plain', text: README_TEXT }]);
  });

  it('official-server limitation: no Tasks extension, so tasks/get is an unknown method (-32601)', async () => {
    const discovered = await ours.mcp.discover();
    expect(discovered.capabilities.extensions?.['io.modelcontextprotocol/tasks']).toBeUndefined();
    const error = await ours.mcp.getTask('no-such-task').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32601 });
  });
});
