import { TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolServer } from '../src/createToolServer.js';
import { JSON_SCHEMA_2020_12_FIXTURE } from '../src/fixtureData.js';
import { firstText, Loopback } from './loopback.js';

/** CONFORMANCE.md 6.3, in order, plus the optional list-change triggers and the tools of the 2025-era scenarios. */
const FIXTURE_TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_error_handling',
  'test_tool_with_progress',
  'test_x_mcp_header',
  'test_missing_capability',
  'test_streaming_elicitation',
  'test_logging_tool',
  'test_input_required_result_elicitation',
  'test_input_required_result_sampling',
  'test_input_required_result_list_roots',
  'test_input_required_result_request_state',
  'test_input_required_result_multiple_inputs',
  'test_input_required_result_multi_round',
  'test_input_required_result_tampered_state',
  'test_input_required_result_capabilities',
  'json_schema_2020_12_tool',
  'test_tool_with_logging',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'greet',
  'slow_compute',
  'failing_job',
  'protocol_error_job',
  'confirm_delete',
  'multi_input',
  'test_tool_with_task',
  'test_trigger_tool_change',
  'test_trigger_prompt_change',
];

let server: ReturnType<typeof createToolServer>;
let client: Loopback;
beforeEach(() => {
  server = createToolServer({ tools: 'conformance' });
  client = new Loopback(server);
});
afterEach(() => server.close());

describe('discovery and lists', () => {
  it('lists exactly the fixture tools in contract order, each with a description', async () => {
    const { tools } = (await client.ok('tools/list')) as { tools: { name: string; description: string }[] };
    expect(tools.map((t) => t.name)).toEqual(FIXTURE_TOOLS);
    for (const tool of tools) expect(tool.description.length).toBeGreaterThan(0);
  });

  it('puts the demo tools after the fixture with --tools all, and only them with --tools demo', async () => {
    const all = createToolServer({ tools: 'all' });
    const demo = createToolServer({ tools: 'demo' });
    try {
      const names = async (s: typeof server) =>
        ((await new Loopback(s).ok('tools/list')).tools as { name: string }[]).map((t) => t.name);
      const allNames = await names(all);
      expect(allNames.slice(0, FIXTURE_TOOLS.length)).toEqual(FIXTURE_TOOLS);
      expect(allNames.slice(FIXTURE_TOOLS.length)).toEqual(await names(demo));
      expect(await names(demo)).toContain('checksum_data');
    } finally {
      await Promise.all([all.close(), demo.close()]);
    }
  });

  it('serves json_schema_2020_12_tool with the harness fixture verbatim', async () => {
    const { tools } = (await client.ok('tools/list')) as { tools: { name: string; inputSchema: unknown }[] };
    expect(tools.find((t) => t.name === 'json_schema_2020_12_tool')?.inputSchema).toEqual(JSON_SCHEMA_2020_12_FIXTURE);
  });

  it('declares Tasks only as an extension (S1, S2) with cache hints on discover', async () => {
    const result = await client.ok('server/discover');
    const capabilities = result.capabilities as Record<string, unknown>;
    expect(capabilities.extensions).toEqual({ [TASKS_EXTENSION_ID]: {} });
    expect(capabilities).not.toHaveProperty('tasks');
    expect(result).toMatchObject({ resultType: 'complete', supportedVersions: ['2026-07-28'], ttlMs: 0 });
  });

  it('lists the fixture prompts, resources and template', async () => {
    const prompts = (await client.ok('prompts/list')).prompts as { name: string }[];
    expect(prompts.map((p) => p.name)).toEqual([
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
      'test_input_required_result_prompt',
    ]);
    const resources = (await client.ok('resources/list')).resources as { uri: string }[];
    expect(resources.map((r) => r.uri)).toEqual(['test://static-text', 'test://static-binary']);
    const templates = (await client.ok('resources/templates/list')).resourceTemplates as { uriTemplate: string }[];
    expect(templates.map((t) => t.uriTemplate)).toEqual(['test://template/{id}/data']);
  });
});

describe('plain tools', () => {
  it('answers the first listed tool with no arguments key (http-header-validation calls it with {})', async () => {
    const result = await client.ok('tools/call', { name: 'test_simple_text' });
    expect(firstText(result)).toBe('This is a simple text response for testing.');
  });

  it('returns the content kinds the tools-call scenarios check', async () => {
    const image = (await client.call('test_image_content')).content as Record<string, unknown>[];
    expect(image[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    const audio = (await client.call('test_audio_content')).content as { data: string; mimeType: string }[];
    expect(audio[0]?.mimeType).toBe('audio/wav');
    expect(
      Buffer.from(audio[0]?.data ?? '', 'base64')
        .subarray(0, 4)
        .toString(),
    ).toBe('RIFF');
    const mixed = (await client.call('test_multiple_content_types')).content as { type: string }[];
    expect(mixed.map((c) => c.type)).toEqual(['text', 'image', 'resource']);
    expect(await client.call('test_error_handling')).toMatchObject({ isError: true, resultType: 'complete' });
  });

  it('sends progress 0, 50, 100 of 100 only when the request carries a progress token', async () => {
    const { notifications } = await client.send(
      'tools/call',
      { name: 'test_tool_with_progress', arguments: {} },
      { meta: { progressToken: 'p-1' } },
    );
    const progress = notifications.map((n) => n.params as { progressToken: string; progress: number; total: number });
    expect(progress.map((p) => p.progress)).toEqual([0, 50, 100]);
    expect(progress.every((p) => p.progressToken === 'p-1' && p.total === 100)).toBe(true);
    const silent = await client.send('tools/call', { name: 'test_tool_with_progress', arguments: {} });
    expect(silent.notifications).toEqual([]);
  });

  it('logs only when the request sets a log level', async () => {
    const quiet = await client.send('tools/call', { name: 'test_logging_tool', arguments: {} });
    expect(quiet.notifications).toEqual([]);
    const loud = await client.send(
      'tools/call',
      { name: 'test_logging_tool', arguments: {} },
      { meta: { 'io.modelcontextprotocol/logLevel': 'debug' } },
    );
    expect(loud.notifications.map((n) => n.method)).toEqual(Array(3).fill('notifications/message'));
  });

  it('answers test_missing_capability with -32021 requiring sampling when it is undeclared', async () => {
    const error = await client.fail('tools/call', { name: 'test_missing_capability', arguments: {} }, { caps: {} });
    expect(error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });

  it('echoes the x-mcp-header region', async () => {
    expect(firstText(await client.call('test_x_mcp_header', { region: 'eu-west1', level: 2 }))).toBe(
      'region=eu-west1 level=2',
    );
  });

  it('toggles a dynamic tool and prompt so list_changed reflects a real change', async () => {
    const toolNames = async () => ((await client.ok('tools/list')).tools as { name: string }[]).map((t) => t.name);
    await client.call('test_trigger_tool_change');
    expect(await toolNames()).toContain('test_dynamic_tool');
    await client.call('test_trigger_tool_change');
    expect(await toolNames()).toEqual(FIXTURE_TOOLS);
    await client.call('test_trigger_prompt_change');
    expect(((await client.ok('prompts/list')).prompts as { name: string }[]).map((p) => p.name)).toContain(
      'test_dynamic_prompt',
    );
  });
});

describe('prompts, resources, completion', () => {
  it('renders prompts with arguments, embedded resources and images', async () => {
    const withArgs = await client.ok('prompts/get', {
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'a', arg2: 'b' },
    });
    expect(JSON.stringify(withArgs.messages)).toContain("arg1='a', arg2='b'");
    const embedded = await client.ok('prompts/get', {
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' },
    });
    expect((embedded.messages as { content: { type: string } }[])[0]?.content.type).toBe('resource');
    const image = await client.ok('prompts/get', { name: 'test_prompt_with_image' });
    expect((image.messages as { content: { type: string } }[])[0]?.content.type).toBe('image');
  });

  it('asks for context before rendering test_input_required_result_prompt', async () => {
    const first = await client.ok('prompts/get', { name: 'test_input_required_result_prompt' });
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests as object)).toEqual(['user_context']);
    const second = await client.ok('prompts/get', {
      name: 'test_input_required_result_prompt',
      inputResponses: { user_context: { action: 'accept', content: { context: 'tests' } } },
    });
    expect(second.resultType).toBe('complete');
    expect(JSON.stringify(second.messages)).toContain('tests');
  });

  it('reads text, binary and templated resources; an unknown URI is -32602 with data.uri', async () => {
    const text = await client.ok('resources/read', { uri: 'test://static-text' });
    expect(text).toMatchObject({ resultType: 'complete', cacheScope: 'private', ttlMs: 0 });
    const binary = (await client.ok('resources/read', { uri: 'test://static-binary' })).contents as object[];
    expect(binary[0]).toHaveProperty('blob');
    const templated = (await client.ok('resources/read', { uri: 'test://template/123/data' })).contents as {
      text: string;
    }[];
    expect(templated[0]?.text).toContain('123');
    const uri = 'test://nonexistent-resource-for-conformance-testing';
    expect(await client.fail('resources/read', { uri })).toMatchObject({ code: -32602, data: { uri } });
  });

  it('completes prompt arguments', async () => {
    const result = await client.ok('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'par' },
    });
    expect((result.completion as { values: string[] }).values).toEqual(['paris', 'park', 'party']);
  });
});

// The tools of the 2025-era active suite serve the 2026 wire too: a question becomes an input_required round.
describe('session tools on the 2026-07-28 wire', () => {
  const answerOnce = async (name: string, args: Record<string, unknown>, answer: Record<string, unknown>) => {
    const first = await client.ok('tools/call', { name, arguments: args });
    expect(first.resultType).toBe('input_required');
    const requests = first.inputRequests as Record<string, { method: string; params: Record<string, unknown> }>;
    const [key, request] = Object.entries(requests)[0] ?? [];
    const second = await client.ok('tools/call', {
      name,
      arguments: args,
      inputResponses: { [key ?? '']: answer },
      ...(first.requestState === undefined ? {} : { requestState: first.requestState }),
    });
    expect(second.resultType).toBe('complete');
    return { request, text: firstText(second) };
  };

  it('test_elicitation asks for username and email and reports the answer', async () => {
    const answer = { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
    const { request, text } = await answerOnce('test_elicitation', { message: 'Who are you?' }, answer);
    expect(request?.method).toBe('elicitation/create');
    expect(request?.params).toMatchObject({
      message: 'Who are you?',
      requestedSchema: { required: ['username', 'email'] },
    });
    expect(text).toContain('ada@example.com');
  });

  it('test_sampling asks the model with the prompt and maxTokens 100', async () => {
    const reply = { role: 'assistant', content: { type: 'text', text: 'Hi there' }, model: 'm', stopReason: 'endTurn' };
    const { request, text } = await answerOnce('test_sampling', { prompt: 'Say hi' }, reply);
    expect(request).toMatchObject({ method: 'sampling/createMessage', params: { maxTokens: 100 } });
    expect(text).toBe('LLM response: Hi there');
  });

  it('test_elicitation_sep1034_defaults and test_elicitation_sep1330_enums send their forms', async () => {
    const accept = { action: 'accept', content: {} };
    const defaults = (await answerOnce('test_elicitation_sep1034_defaults', {}, accept)).request?.params;
    expect(defaults).toMatchObject({
      requestedSchema: {
        properties: {
          name: { default: 'John Doe' },
          age: { type: 'integer', default: 30 },
          score: { default: 95.5 },
          status: { default: 'active' },
          verified: { default: true },
        },
      },
    });
    const enums = (await answerOnce('test_elicitation_sep1330_enums', {}, accept)).request?.params;
    expect(Object.keys((enums?.requestedSchema as { properties: object } | undefined)?.properties ?? {})).toEqual([
      'untitledSingle',
      'titledSingle',
      'legacyEnum',
      'untitledMulti',
      'titledMulti',
    ]);
  });

  it('test_tool_with_logging logs three messages when the request sets a log level', async () => {
    const { notifications } = await client.send(
      'tools/call',
      { name: 'test_tool_with_logging', arguments: {} },
      { meta: { 'io.modelcontextprotocol/logLevel': 'info' } },
    );
    expect(notifications.map((n) => (n.params as { data: string }).data)).toEqual([
      'Tool execution started',
      'Tool processing data',
      'Tool execution completed',
    ]);
  });
});
