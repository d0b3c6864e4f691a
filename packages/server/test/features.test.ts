import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer, RequestStateSigner } from '../src/index.js';
import { fixtureServer, RAW_SCHEMA } from './fixture.js';
import { BASE_CAPS, Loopback } from './harness.js';

let server: McpServer;
afterEach(async () => server?.close());

function setup() {
  server = fixtureServer();
  return new Loopback(server, { caps: BASE_CAPS });
}

describe('tools', () => {
  it('lists tools in registration order with descriptions and JSON Schemas', async () => {
    const client = setup();
    const { tools } = (await client.ok('tools/list')) as { tools: Array<Record<string, unknown>> };
    expect(tools[0]?.name).toBe('test_simple_text');
    const ajv = new Ajv2020({ strict: false });
    for (const tool of tools) {
      expect(tool.description).toBeTruthy();
      expect(tool.inputSchema).toHaveProperty('type', 'object');
      expect(ajv.validateSchema(tool.inputSchema as object)).toBe(true);
    }
    const header = tools.find((tool) => tool.name === 'test_x_mcp_header');
    expect(header?.inputSchema).toMatchObject({ properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } });
    expect(tools.find((tool) => tool.name === 'json_schema_2020_12_tool')?.inputSchema).toEqual(RAW_SCHEMA);
    const again = (await client.ok('tools/list')) as { tools: unknown[] };
    expect(again.tools).toEqual(tools);
  });

  it('paginates with opaque cursors and rejects foreign cursors', async () => {
    server = new McpServer({ serverInfo: { name: 's', version: '1' }, pageSize: 2 });
    for (const name of ['a', 'b', 'c']) server.tool({ name, description: name, handler: () => ({ content: [] }) });
    const client = new Loopback(server, { caps: BASE_CAPS });
    const first = await client.ok('tools/list');
    expect((first.tools as unknown[]).length).toBe(2);
    const second = await client.ok('tools/list', { cursor: first.nextCursor });
    expect(second.tools).toEqual([expect.objectContaining({ name: 'c' })]);
    expect(second).not.toHaveProperty('nextCursor');
    expect((await client.fail('tools/list', { cursor: 'bogus!' })).code).toBe(-32602);
  });

  it('unknown tool is -32602; bad arguments are a readable tool error', async () => {
    const client = setup();
    expect((await client.fail('tools/call', { name: 'nope' })).code).toBe(-32602);
    const bad = await client.call('greet', { name: 3 });
    expect(bad).toMatchObject({
      resultType: 'complete',
      isError: true,
      content: [{ text: expect.stringMatching(/name/) }],
    });
    const notObject = await client.ok('tools/call', { name: 'greet', arguments: 'x' });
    expect(notObject.isError).toBe(true);
  });

  it('calls a tool without an arguments key', async () => {
    const client = setup();
    expect(await client.ok('tools/call', { name: 'test_simple_text' })).toMatchObject({
      content: [{ text: 'simple' }],
    });
  });

  it('validates arguments with a schema whose refinement is async (the synchronous parse cannot), both ways', async () => {
    server = new McpServer({ serverInfo: { name: 's', version: '1' } });
    const known = new Set(['ada']);
    server.tool({
      name: 'lookup',
      description: 'Looks a user up',
      inputSchema: z.object({
        user: z.string().refine(async (user) => known.has(user), { message: 'unknown user' }),
        times: z.number().transform((n) => n * 2),
      }),
      handler: ({ user, times }) => ({ content: [{ type: 'text', text: `${user} ${times}` }] }),
    });
    const client = new Loopback(server, { caps: BASE_CAPS });
    expect(await client.call('lookup', { user: 'ada', times: 2 })).toMatchObject({
      resultType: 'complete',
      content: [{ text: 'ada 4' }],
    });
    const refused = await client.call('lookup', { user: 'bob', times: 2 });
    expect(refused).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/unknown user/) }] });
  });

  it('rejects invalid registrations', () => {
    server = new McpServer({ serverInfo: { name: 's', version: '1' } });
    const handler = () => ({ content: [] });
    expect(() => server.tool({ name: 'bad name', description: 'd', handler })).toThrow();
    expect(() => server.tool({ name: 'ok', description: ' ', handler })).toThrow();
    expect(() =>
      server.tool({
        name: 'n',
        description: 'd',
        inputSchema: z.object({ x: z.number().meta({ 'x-mcp-header': 'X' }) }),
        handler,
      }),
    ).toThrow();
    server.tool({ name: 'dup', description: 'd', handler });
    expect(() => server.tool({ name: 'dup', description: 'd', handler })).toThrow();
    expect(server.removeTool('dup')).toBe(true);
  });
});

describe('Mcp-Param headers: what the runtime tells the HTTP binding (SEP-2243)', () => {
  it('answers toolParamHeaders from the registered input schema, bound, empty for unknown or plain tools', () => {
    const client = setup();
    const { toolParamHeaders } = client.server;
    expect(toolParamHeaders('test_x_mcp_header')).toEqual([{ path: ['region'], name: 'Region' }]);
    expect(toolParamHeaders('test_simple_text')).toEqual([]);
    expect(toolParamHeaders('no_such_tool')).toEqual([]);
  });

  it('follows registration and removal', () => {
    server = new McpServer({ serverInfo: { name: 't', version: '1' } });
    server.tool({
      name: 'nested',
      description: 'd',
      inputSchema: z.object({ where: z.object({ zone: z.string().meta({ 'x-mcp-header': 'Zone' }) }) }),
      handler: () => ({ content: [] }),
    });
    expect(server.toolParamHeaders('nested')).toEqual([{ path: ['where', 'zone'], name: 'Zone' }]);
    server.removeTool('nested');
    expect(server.toolParamHeaders('nested')).toEqual([]);
  });

  it('calls an annotated tool on a context without HTTP fields, as stdio and WebSocket deliver it', async () => {
    const client = setup();
    const { response } = await client.send('tools/call', { name: 'test_x_mcp_header', arguments: { region: 'us' } });
    expect(response).toHaveProperty('result');
  });
});

describe('prompts, resources, completion', () => {
  it('lists and renders prompts, checking required arguments', async () => {
    const client = setup();
    const { prompts } = (await client.ok('prompts/list')) as { prompts: Array<Record<string, unknown>> };
    expect(prompts.find((p) => p.name === 'test_prompt_with_arguments')?.arguments).toEqual([
      { name: 'arg1', required: true },
      { name: 'arg2', required: true },
    ]);
    const got = await client.ok('prompts/get', {
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'x', arg2: 'y' },
    });
    expect(got).toMatchObject({ resultType: 'complete', messages: [{ content: { text: 'x y' } }] });
    expect(
      (await client.fail('prompts/get', { name: 'test_prompt_with_arguments', arguments: { arg1: 'x' } })).code,
    ).toBe(-32602);
    expect((await client.fail('prompts/get', { name: 'missing' })).code).toBe(-32602);
  });

  it('reads fixed and templated resources; unknown URI is -32602 with data.uri', async () => {
    const client = setup();
    expect(await client.ok('resources/read', { uri: 'test://static-binary' })).toMatchObject({
      contents: [{ blob: 'AAAA' }],
    });
    expect(await client.ok('resources/read', { uri: 'test://template/42/data' })).toMatchObject({
      contents: [{ text: '{"id":"42"}' }],
    });
    const uri = 'test://nonexistent-resource-for-conformance-testing';
    expect(await client.fail('resources/read', { uri })).toMatchObject({ code: -32602, data: { uri } });
    expect((await client.fail('resources/read', { uri: 'test://template/missing/data' })).data).toEqual({
      uri: 'test://template/missing/data',
    });
    const templates = await client.ok('resources/templates/list');
    expect(templates.resourceTemplates).toEqual([{ uriTemplate: 'test://template/{id}/data', name: 'template' }]);
  });

  it('completes prompt arguments and template variables', async () => {
    const client = setup();
    const prompt = await client.ok('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'alp' },
    });
    expect(prompt).toMatchObject({
      resultType: 'complete',
      completion: { values: ['alpha', 'alphabet'], total: 2, hasMore: false },
    });
    const template = await client.ok('completion/complete', {
      ref: { type: 'ref/resource', uri: 'test://template/{id}/data' },
      argument: { name: 'id', value: '1' },
    });
    expect((template.completion as { values: string[] }).values).toEqual(['1', '10']);
    expect(
      (
        await client.fail('completion/complete', {
          ref: { type: 'ref/prompt', name: 'nope' },
          argument: { name: 'a', value: '' },
        })
      ).code,
    ).toBe(-32602);
  });
});

describe('RequestStateSigner', () => {
  const binding = { method: 'tools/call', name: 't', principal: 'p' };

  it('round-trips state and rejects it after its ttl', async () => {
    let now = 1000;
    const signer = new RequestStateSigner('secret', 100, () => now);
    const token = await signer.sign(binding, { n: 1 });
    expect(await signer.verify(binding, token)).toEqual({ n: 1 });
    now = 1200;
    await expect(signer.verify(binding, token)).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/expired/),
    });
  });

  it('rejects a token signed with another key', async () => {
    const token = await new RequestStateSigner('a').sign(binding, 1);
    await expect(new RequestStateSigner('b').verify(binding, token)).rejects.toMatchObject({ code: -32602 });
    await expect(new RequestStateSigner('a').verify(binding, 'garbage')).rejects.toMatchObject({ code: -32602 });
  });
});
