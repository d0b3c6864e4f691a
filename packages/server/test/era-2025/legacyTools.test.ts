import { ErrorCode, type InputRequest } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../../src/index.js';
import { fakeContext, request } from '../harness.js';
import { LegacyClient } from './legacyHarness.js';

const servers: McpServer[] = [];

const ASK_NAME = {
  message: 'Your name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] },
};
const ASK_MODEL = {
  messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Capital of France?' } }],
  maxTokens: 10,
};
const CONFIRM: InputRequest = {
  method: 'elicitation/create',
  params: {
    message: 'Confirm?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  },
};
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

function toolServer(): McpServer {
  const server = new McpServer({ serverInfo: { name: 'legacy-tools', version: '1.0.0' } });
  server
    .tool({
      name: 'logs',
      description: 'Logs at three levels',
      handler: (_args, ctx) => {
        ctx.log('debug', 'debug message');
        ctx.log('info', 'info message', 'logs');
        ctx.log('error', { failure: true });
        return text('logged');
      },
    })
    .tool({
      name: 'progress',
      description: 'Reports progress twice',
      handler: (_args, ctx) => {
        ctx.progress(1, 2, 'half');
        ctx.progress(2, 2);
        return text('done');
      },
    })
    .tool({
      name: 'ask_name',
      description: 'Elicits a name',
      handler: async (_args, ctx) => {
        const answer = await ctx.elicit(ASK_NAME);
        return text(`${answer.action}:${JSON.stringify(answer.content ?? null)}`);
      },
    })
    .tool({
      name: 'ask_model',
      description: 'Samples the client model',
      handler: async (_args, ctx) => {
        const answer = await ctx.sample(ASK_MODEL);
        const content = answer.content;
        return text(`model:${!Array.isArray(content) && content.type === 'text' ? content.text : '?'}`);
      },
    })
    .tool({
      name: 'roots',
      description: 'Lists the client roots',
      handler: async (_args, ctx) => text(`roots:${(await ctx.listRoots()).roots.map((r) => r.uri).join(',')}`),
    })
    .tool({
      name: 'ask_twice',
      description: 'Asks two questions in a row and reports its protocol version',
      handler: async (_args, ctx) => {
        const first = await ctx.elicit(ASK_NAME);
        const second = await ctx.elicit(ASK_NAME);
        return text(`${ctx.protocolVersion}:${first.content?.name}+${second.content?.name}`);
      },
    })
    .tool({
      name: 'mrtr_confirm',
      description: 'Asks through an input_required round',
      handler: (_args, ctx) => {
        const answer = ctx.inputResponses.confirm;
        if (answer === undefined) return ctx.inputRequired({ inputRequests: { confirm: CONFIRM }, state: { n: 1 } });
        return text(`confirmed:${JSON.stringify(answer.content)} state:${JSON.stringify(ctx.requestState)}`);
      },
    });
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe('legacy logging and progress', () => {
  it('L-S28: ctx.log sends notifications/message on the request by the session level', async () => {
    const client = new LegacyClient(toolServer());
    await client.connect();
    const silent = await client.send('tools/call', { name: 'logs' });
    expect(silent.notifications).toEqual([]);
    await client.ok('logging/setLevel', { level: 'info' });
    const { response, notifications } = await client.send('tools/call', { name: 'logs' });
    expect(response).toMatchObject({ result: { content: [{ text: 'logged' }] } });
    expect(notifications).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'info', data: 'info message', logger: 'logs' },
      },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: { failure: true } } },
    ]);
    expect(client.session.notifications).toEqual([]);
  });

  it('L-S29: progress only for the request carrying _meta.progressToken, with that token', async () => {
    const client = new LegacyClient(toolServer());
    await client.connect();
    expect((await client.send('tools/call', { name: 'progress' })).notifications).toEqual([]);
    const { notifications } = await client.send('tools/call', {
      name: 'progress',
      _meta: { progressToken: 'progress-test-1' },
    });
    expect(notifications).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'progress-test-1', progress: 1, total: 2, message: 'half' },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'progress-test-1', progress: 2, total: 2 },
      },
    ]);
  });
});

describe('legacy server-to-client requests', () => {
  it('L-S23/L-S26: ctx.elicit sends elicitation/create on the request (context.request) and gets the answer', async () => {
    const client = new LegacyClient(toolServer(), undefined, true);
    await client.connect();
    client.session.answer({ result: { action: 'accept', content: { name: 'Ada' } } });
    const result = await client.ok('tools/call', { name: 'ask_name' });
    expect(result).toStrictEqual(text('accept:{"name":"Ada"}'));
    expect(client.viaContext).toEqual([{ method: 'elicitation/create', params: ASK_NAME }]);
  });

  it('L-S23: without context.request the session carries the request; several questions in order', async () => {
    const client = new LegacyClient(toolServer());
    await client.connect({ version: '2025-06-18' });
    client.session.answer(
      { result: { action: 'accept', content: { name: 'A' } } },
      { result: { action: 'accept', content: { name: 'B' } } },
    );
    expect(await client.ok('tools/call', { name: 'ask_twice' })).toStrictEqual(text('2025-06-18:A+B'));
    expect(client.session.requests.map((r) => r.method)).toEqual(['elicitation/create', 'elicitation/create']);
  });

  it('L-S24: ctx.sample sends sampling/createMessage', async () => {
    const client = new LegacyClient(toolServer());
    await client.connect();
    client.session.answer({
      result: { role: 'assistant', content: { type: 'text', text: 'Paris' }, model: 'm', stopReason: 'endTurn' },
    });
    expect(await client.ok('tools/call', { name: 'ask_model' })).toStrictEqual(text('model:Paris'));
    expect(client.session.requests).toEqual([{ method: 'sampling/createMessage', params: ASK_MODEL }]);
  });

  it('L-S25: ctx.listRoots sends roots/list', async () => {
    const client = new LegacyClient(toolServer());
    await client.connect();
    client.session.answer({ result: { roots: [{ uri: 'file:///home' }] } });
    expect(await client.ok('tools/call', { name: 'roots' })).toStrictEqual(text('roots:file:///home'));
    expect(client.session.requests).toEqual([{ method: 'roots/list', params: {} }]);
  });

  it.each([
    ['ask_name', { sampling: {}, roots: {} }, { elicitation: { form: {} } }],
    ['ask_model', { elicitation: {}, roots: {} }, { sampling: {} }],
    ['roots', { elicitation: {}, sampling: {} }, { roots: {} }],
  ])(
    'L-S23..L-S25: %s with the capability undeclared sends nothing and fails naming it',
    async (tool, capabilities, missing) => {
      const client = new LegacyClient(toolServer());
      await client.connect({ capabilities });
      const error = await client.fail('tools/call', { name: tool });
      expect(error).toMatchObject({
        code: ErrorCode.MissingRequiredClientCapability,
        data: { requiredCapabilities: missing },
      });
      expect(client.session.requests).toEqual([]);
    },
  );

  it('a JSON-RPC error from the client reaches the tool as an error (an isError result when uncaught)', async () => {
    const client = new LegacyClient(toolServer());
    await client.connect();
    client.session.answer({ error: { code: -32601, message: 'no elicitation here' } });
    const result = await client.ok('tools/call', { name: 'ask_name' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('no elicitation here');
  });

  it('an answer that does not match the result schema reaches the tool as an error', async () => {
    const client = new LegacyClient(toolServer());
    await client.connect();
    client.session.answer({ result: { action: 'maybe' } });
    const result = await client.ok('tools/call', { name: 'ask_name' });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('not a valid result');
  });

  it('L-S34: an input_required round never reaches the client: it is asked directly and the call completes', async () => {
    const client = new LegacyClient(toolServer());
    await client.connect();
    client.session.answer({ result: { action: 'accept', content: { ok: true } } });
    const result = await client.ok('tools/call', { name: 'mrtr_confirm' });
    expect(result).toStrictEqual(text('confirmed:{"ok":true} state:{"n":1}'));
    expect(client.session.requests).toEqual([CONFIRM]);
  });

  it('an input_required round whose client errors fails the request with -32603 naming it', async () => {
    const client = new LegacyClient(toolServer());
    await client.connect();
    client.session.answer({ error: { code: -1, message: 'refused' } });
    const error = await client.fail('tools/call', { name: 'mrtr_confirm' });
    expect(error.code).toBe(ErrorCode.InternalError);
    expect(error.message).toContain('refused');
  });

  it('a request still asking after 16 rounds fails with -32603, the client asked once per round', async () => {
    const server = new McpServer({ serverInfo: { name: 'legacy-rounds', version: '1.0.0' } });
    servers.push(server);
    server.tool({
      name: 'never_satisfied',
      description: 'Asks again whatever the answer',
      handler: (_args, ctx) => ctx.inputRequired({ inputRequests: { confirm: CONFIRM }, state: { n: 1 } }),
    });
    const client = new LegacyClient(server);
    await client.connect();
    const answers = Array.from({ length: 20 }, () => ({ result: { action: 'accept', content: { ok: true } } }));
    client.session.answer(...answers);
    const error = await client.fail('tools/call', { name: 'never_satisfied' });
    expect(error).toMatchObject({ code: ErrorCode.InternalError, message: expect.stringContaining('after 16 rounds') });
    expect(client.session.requests).toHaveLength(17);
  });

  it('the same tools still answer MRTR on the 2026 wire', async () => {
    const server = toolServer();
    const response = await server.handle(request('tools/call', { name: 'ask_name' }), fakeContext().context);
    expect(response).toMatchObject({ result: { resultType: 'input_required', inputRequests: { 'ask-1': {} } } });
  });
});
