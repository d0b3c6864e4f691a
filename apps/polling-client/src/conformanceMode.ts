/**
 * Conformance-suite client mode (CONFORMANCE.md section 7): the harness starts `main.js conformance <url>` with
 * `MCP_CONFORMANCE_SCENARIO` (and maybe `MCP_CONFORMANCE_CONTEXT`) set, and watches what the client sends.
 * Each scenario gets the exchanges it needs; unknown scenarios get discovery plus `tools/list`.
 */
import { type ElicitationHandler, formFields, type JsonValue, McpClient } from '@mcp-tasks/client';
import { type ElicitResult, LATEST_PROTOCOL_VERSION, type Tool } from '@mcp-tasks/protocol';
import { builtinSample } from './builtinSampler.js';
import { PROTOCOL_CHOICES } from './cliArgs.js';
import { ExitCode, UsageError } from './cliErrors.js';
import { AUTH_STEPS, conformanceAuthFetch } from './conformanceAuth.js';
import { openTransport } from './openTransport.js';
import { CLIENT_INFO } from './session.js';

type Steps = (client: McpClient, context: ScenarioContext) => Promise<void>;

/** What the harness may pass in `MCP_CONFORMANCE_CONTEXT`. */
interface ScenarioContext {
  readonly toolCalls?: readonly { readonly name: string; readonly arguments?: Record<string, unknown> }[];
}

const SCENARIOS: Readonly<Record<string, Steps>> = {
  tools_call: async (client) => {
    await client.listAllTools();
    await client.callTool('add_numbers', { a: 5, b: 3 });
  },
  'request-metadata': async (client) => {
    // The first request is refused with -32022; the client retries it with a supported version.
    await client.discover();
    await client.listAllTools();
  },
  'sep-2322-client-request-state': async (client) => {
    for (const name of [
      'test_mrtr_echo_state',
      'test_mrtr_no_state',
      'test_mrtr_unrelated',
      'test_mrtr_no_result_type',
    ])
      await client.callTool(name, {});
  },
  'http-standard-headers': async (client) => {
    for (const tool of await client.listAllTools()) await client.callTool(tool.name, {});
    for (const resource of (await client.listResources()).resources) await client.readResource(resource.uri);
    for (const prompt of (await client.listPrompts()).prompts) await client.getPrompt(prompt.name, {});
  },
  'http-custom-headers': async (client, context) => {
    await client.listAllTools();
    for (const call of context.toolCalls ?? []) await client.callTool(call.name, call.arguments ?? {});
  },
  'http-invalid-tool-headers': async (client, context) => {
    // The HTTP transport drops tools whose x-mcp-header annotations are invalid; only valid ones remain callable.
    const tools = await client.listAllTools();
    const calls = context.toolCalls ?? [{ name: 'valid_tool', arguments: { region: 'us-west1' } }];
    for (const call of calls)
      if (tools.some((t) => t.name === call.name)) await client.callTool(call.name, call.arguments ?? {});
  },
  // 2025-era scenarios (MCP_CONFORMANCE_PROTOCOL_VERSION names a 2025 version; the client then pins it).
  initialize: async (client) => {
    await client.connect();
  },
  'elicitation-sep1034-client-defaults': async (client) => {
    await client.listAllTools();
    await client.callTool('test_client_elicitation_defaults', {});
  },
  'sse-retry': async (client) => {
    for (const tool of await client.listAllTools()) await client.callTool(tool.name, {});
  },
  'json-schema-ref-no-deref': async (client) => {
    // Listing is the whole test: a `$ref` is data, never a URL to fetch.
    await client.listAllTools();
  },
  'json-schema-2020-12-preservation': async (client) => {
    const tools = await client.listAllTools();
    const focal = tools.find((t: Tool) => t.name === 'json_schema_2020_12_tool');
    if (focal === undefined) throw new Error('json_schema_2020_12_tool is not listed');
    await client.callTool('json_schema_echo', { schema: focal.inputSchema });
  },
};

/** Runs the scenario named in the environment against `url` and resolves with the exit code. */
export async function runConformance(url: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const scenario = env.MCP_CONFORMANCE_SCENARIO ?? '';
  // The harness names the era to speak; its 2025-era mocks answer server/discover with a bare {}.
  const version = env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? LATEST_PROTOCOL_VERSION;
  const pin = PROTOCOL_CHOICES.find((choice) => choice === version);
  if (pin === undefined) throw new UsageError(`This client speaks MCP ${PROTOCOL_CHOICES.join(', ')}, not ${version}`);
  const context = parseContext(env.MCP_CONFORMANCE_CONTEXT);
  const fetch = scenario.startsWith('auth/') ? await conformanceAuthFetch(env.MCP_CONFORMANCE_CONTEXT) : undefined;
  const transport = await openTransport({ kind: 'url', url }, { verbose: true, fetch });
  const client = new McpClient({
    transport,
    clientInfo: CLIENT_INFO,
    handlers: { elicitation: acceptForm, sampling: (params) => builtinSample(params) },
    // The mocks are stateless and some answer list methods with fresh data per call.
    cache: false,
    versionNegotiation: { pin },
  });
  try {
    const steps = SCENARIOS[scenario] ?? (scenario.startsWith('auth/') ? AUTH_STEPS : discoverAndList);
    await steps(client, context);
    return ExitCode.Completed;
  } finally {
    await client.close();
  }
}

async function discoverAndList(client: McpClient): Promise<void> {
  if ((await client.connect()).era === 'modern') await client.discover();
  await client.listAllTools();
}

/** Accepts every form with each field's default, or `true` / the first choice / an empty value. */
const acceptForm: ElicitationHandler = (params) => {
  if (params.mode === 'url') return { action: 'decline' };
  const content: Record<string, JsonValue> = {};
  for (const field of formFields(params.requestedSchema)) {
    if (field.default !== undefined) content[field.name] = field.default;
    else if (field.kind === 'boolean') content[field.name] = true;
    else if (field.kind === 'enum') content[field.name] = field.choices[0]?.value ?? '';
    else if (field.kind === 'multi') content[field.name] = [];
    else if (field.kind === 'string') content[field.name] = '';
    else content[field.name] = 0;
  }
  // Defaults come from a requested schema, which holds only primitive and string-list fields.
  return { action: 'accept', content: content as ElicitResult['content'] };
};

function parseContext(text: string | undefined): ScenarioContext {
  if (text === undefined || text === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as ScenarioContext) : {};
  } catch {
    throw new UsageError('MCP_CONFORMANCE_CONTEXT is not valid JSON');
  }
}
