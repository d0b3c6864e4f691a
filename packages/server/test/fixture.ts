import {
  type CreateMessageRequest,
  type ElicitRequest,
  type ElicitRequestFormParams,
  ErrorCode,
  type InputRequest,
  type ListRootsRequest,
  ProtocolError,
} from '@mcp-tasks/protocol';
import type { TaskStore } from '@mcp-tasks/task-store';
import { z } from 'zod';
import { jsonSchema, McpServer, type McpServerOptions, type ToolContext } from '../src/index.js';

/** Sleeps `ms`, rejecting as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

const NAME_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};
const elicitName: ElicitRequest = {
  method: 'elicitation/create',
  params: { message: 'What is your name?', requestedSchema: NAME_SCHEMA },
};
const askCapital: CreateMessageRequest = {
  method: 'sampling/createMessage',
  params: {
    messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
    maxTokens: 100,
  },
};
const listRoots: ListRootsRequest = { method: 'roots/list', params: {} };

export const RAW_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addr', type: 'object', properties: { street: { type: 'string' } } } },
  properties: { home: { $ref: '#addr' }, kind: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
  if: { properties: { kind: { const: 'x' } } },
  // biome-ignore lint/suspicious/noThenProperty: a JSON Schema keyword, served verbatim
  then: { required: ['home'] },
  else: {},
  additionalProperties: false,
};

/** Test hooks shared with the tools below. */
export interface Hooks {
  /** Resolved by tests to let `gated` finish. */
  gate: Promise<void>;
  /** Set by `ignores_signal` when it finally returns. */
  lateResults: number;
}

/** A server with the conformance fixture's runtime-relevant tools, prompts and resources. */
export function fixtureServer(options: Partial<McpServerOptions> & { store?: TaskStore } = {}, hooks?: Hooks) {
  const { store, ...rest } = options;
  const server = new McpServer({
    serverInfo: { name: 'fixture', version: '1.0.0' },
    tasks: { pollIntervalMs: 200, ...rest.tasks },
    ...(store === undefined ? {} : { taskStore: store }),
    onError: () => undefined,
    ...rest,
  });
  server
    .tool({
      name: 'test_simple_text',
      description: 'Simple text',
      handler: () => ({ content: [{ type: 'text', text: 'simple' }] }),
    })
    .tool({
      name: 'greet',
      description: 'Greets',
      inputSchema: z.object({ name: z.string() }),
      handler: ({ name }) => ({ content: [{ type: 'text', text: `Hello, ${name}!` }] }),
    })
    .tool({
      name: 'slow_compute',
      description: 'Sleeps, cancellably',
      inputSchema: z.object({ seconds: z.number(), label: z.string().optional() }),
      taskSupport: 'optional',
      handler: async ({ seconds, label }, ctx) => {
        await sleep(seconds * 1000, ctx.signal);
        return { content: [{ type: 'text', text: `computed ${label ?? ''}` }] };
      },
    })
    .tool({
      name: 'failing_job',
      description: 'Fails as a tool error',
      taskSupport: 'required',
      handler: () => {
        throw new Error('the job failed');
      },
    })
    .tool({
      name: 'error_result_job',
      description: 'Returns isError',
      taskSupport: 'optional',
      handler: () => ({ content: [{ type: 'text', text: 'bad input' }], isError: true }),
    })
    .tool({
      name: 'protocol_error_job',
      description: 'Fails with a JSON-RPC error',
      taskSupport: 'optional',
      handler: () => {
        throw new ProtocolError(ErrorCode.InternalError, 'backend unavailable', { retry: false });
      },
    })
    .tool({
      name: 'confirm_delete',
      description: 'Asks for confirmation inside the task',
      inputSchema: z.object({ filename: z.string() }),
      taskSupport: 'optional',
      handler: async ({ filename }, ctx) => {
        const answer = await ctx.elicit({
          message: `Delete ${filename}?`,
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
        });
        const content = answer.content as { confirm?: boolean } | undefined;
        const ok = answer.action === 'accept' && content?.confirm === true;
        return { content: [{ type: 'text', text: ok ? `deleted ${filename}` : 'kept' }] };
      },
    })
    .tool({
      name: 'multi_input',
      description: 'Two concurrent questions',
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        const [a, b] = await Promise.all([ctx.elicit(elicitName.params), ctx.elicit(elicitName.params)]);
        return { content: [{ type: 'text', text: `${JSON.stringify(a)} ${JSON.stringify(b)}` }] };
      },
    })
    .tool({
      name: 'sample_in_task',
      description: 'Samples and lists roots inside the task',
      taskSupport: 'required',
      handler: async (_args, ctx) => {
        await ctx.setStatus('sampling');
        const sampled = await ctx.sample(askCapital.params);
        const roots = await ctx.listRoots();
        return { content: [{ type: 'text', text: JSON.stringify({ sampled, roots }) }] };
      },
    })
    .tool({
      name: 'test_tool_with_task',
      description: 'MRTR first, then a task',
      taskSupport: 'required',
      collectInput: (_args, ctx) =>
        ctx.inputResponses.user_name === undefined
          ? ctx.inputRequired({ inputRequests: { user_name: elicitName }, state: { round: 1 } })
          : undefined,
      handler: (_args, ctx) => {
        const content = ctx.inputResponses.user_name?.content as { name?: string } | undefined;
        return {
          content: [
            { type: 'text', text: `Hello ${content?.name ?? '?'} (state ${JSON.stringify(ctx.requestState)})` },
          ],
        };
      },
    })
    .tool({
      name: 'gated',
      description: 'Finishes when the test opens the gate',
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        await hooks?.gate;
        await ctx.setStatus('almost');
        return { content: [{ type: 'text', text: 'gated done' }] };
      },
    })
    .tool({
      name: 'ignores_signal',
      description: 'Never looks at its signal',
      taskSupport: 'required',
      handler: async () => {
        await hooks?.gate;
        if (hooks) hooks.lateResults += 1;
        return { content: [{ type: 'text', text: 'late' }] };
      },
    })
    .tool({
      name: 'test_input_required_result_elicitation',
      description: 'MRTR elicitation',
      handler: (_args, ctx) => {
        const answer = ctx.inputResponses.user_name;
        if (answer === undefined) return ctx.inputRequired({ inputRequests: { user_name: elicitName } });
        return { content: [{ type: 'text', text: `hi ${JSON.stringify(answer.content)}` }] };
      },
    })
    .tool({
      name: 'test_input_required_result_multi_round',
      description: 'Two MRTR rounds with fresh state',
      handler: (_args, ctx) => {
        const state = ctx.requestState as { step?: number } | undefined;
        if (state === undefined) return ctx.inputRequired({ inputRequests: { step1: elicitName }, state: { step: 1 } });
        if (state.step === 1 && ctx.inputResponses.step1) {
          return ctx.inputRequired({ inputRequests: { step2: askCapital }, state: { step: 2 } });
        }
        return { content: [{ type: 'text', text: `done after step ${state.step}` }] };
      },
    })
    .tool({
      name: 'test_input_required_result_capabilities',
      description: 'Asks only for declared kinds',
      handler: (_args, ctx) => {
        const requests: Record<string, InputRequest> = {};
        if (ctx.canRequest('elicitation')) requests.user_name = elicitName;
        if (ctx.canRequest('sampling')) requests.capital_question = askCapital;
        if (ctx.canRequest('roots')) requests.client_roots = listRoots;
        return ctx.inputRequired({ inputRequests: requests, state: 'caps' });
      },
    })
    .tool({
      name: 'test_missing_capability',
      description: 'Needs sampling',
      handler: (_args, ctx) => ctx.inputRequired({ inputRequests: { capital_question: askCapital } }),
    })
    .tool({
      name: 'test_tool_with_progress',
      description: 'Reports progress',
      handler: (_args, ctx: ToolContext) => {
        for (const progress of [0, 50, 100]) ctx.progress(progress, 100);
        ctx.log('info', 'progress done');
        return { content: [{ type: 'text', text: 'progressed' }] };
      },
    })
    .tool({
      name: 'test_x_mcp_header',
      description: 'Mirrors region into a header',
      inputSchema: z.object({
        region: z.string().meta({ 'x-mcp-header': 'Region' }),
        level: z.number().int().optional(),
      }),
      handler: ({ region }) => ({ content: [{ type: 'text', text: `region=${region}` }] }),
    })
    .tool({
      name: 'json_schema_2020_12_tool',
      description: 'Raw JSON Schema',
      inputSchema: jsonSchema(RAW_SCHEMA),
      handler: (args) => ({ content: [{ type: 'text', text: JSON.stringify(args) }] }),
    });
  server
    .prompt({
      name: 'test_simple_prompt',
      description: 'Simple',
      handler: () => ({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] }),
    })
    .prompt({
      name: 'test_prompt_with_arguments',
      arguments: [
        {
          name: 'arg1',
          required: true,
          complete: (value) => ['alpha', 'beta', 'alphabet'].filter((v) => v.startsWith(value)),
        },
        { name: 'arg2', required: true },
      ],
      handler: ({ arg1, arg2 }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `${arg1} ${arg2}` } }],
      }),
    })
    .prompt({
      name: 'test_input_required_result_prompt',
      handler: (_args, ctx) =>
        ctx.inputResponses.user_context === undefined
          ? ctx.inputRequired({
              inputRequests: {
                user_context: {
                  method: 'elicitation/create',
                  params: {
                    message: 'Context?',
                    requestedSchema: { type: 'object', properties: { context: { type: 'string' } } },
                  },
                },
              },
            })
          : { messages: [{ role: 'user', content: { type: 'text', text: 'with context' } }] },
    })
    .prompt({
      name: 'broken_prompt',
      handler: () => {
        throw new Error('secret database password in stack');
      },
    });
  server
    .resource({
      uri: 'test://static-text',
      name: 'static-text',
      mimeType: 'text/plain',
      read: (uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: 'static' }] }),
    })
    .resource({
      uri: 'test://static-binary',
      name: 'static-binary',
      mimeType: 'image/png',
      read: (uri) => ({ contents: [{ uri, mimeType: 'image/png', blob: 'AAAA' }] }),
    })
    .resourceTemplate({
      uriTemplate: 'test://template/{id}/data',
      name: 'template',
      complete: { id: (value) => ['1', '2', '10'].filter((v) => v.startsWith(value)) },
      read: (uri, { id }) =>
        id === 'missing'
          ? undefined
          : { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify({ id }) }] },
    });
  return server;
}
