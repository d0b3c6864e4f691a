/**
 * Synchronous tools, MRTR rounds and task negotiation: the real McpClient against the real McpServer through a
 * linked pair.
 */
import { type ElicitRequestFormParams, ErrorCode, ProtocolError, TASKS_EXTENSION_ID } from '@mcp-tasks/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createHarness, text } from './harness.js';

const NAME_SCHEMA: ElicitRequestFormParams['requestedSchema'] = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};

describe('synchronous tools', () => {
  it('C3/S7: a forbidden-task tool answers directly with a complete CallToolResult, no task methods used', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'echo',
      description: 'Echoes its input',
      inputSchema: z.object({ text: z.string() }),
      handler: ({ text: value }) => text(`echo: ${value}`),
    });
    const { client } = h.connect();
    const result = await client.callTool('echo', { text: 'hi' });
    expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'echo: hi' }] });
    expect(result.isError).toBeUndefined();
    expect(h.sent('tools/call')).toHaveLength(1);
    expect(h.log.some((e) => e.message.method?.startsWith('tasks/'))).toBe(false);
    expect(h.serverErrors).toEqual([]);
  });

  it('C1/C2: every request carries the protocol version, client info and the Tasks extension capability', async () => {
    const h = createHarness();
    h.server.tool({ name: 'noop', description: 'Does nothing', handler: () => text('ok') });
    const { client } = h.connect();
    await client.callTool('noop');
    const meta = h.sent('tools/call')[0]?.message.params?._meta as Record<string, unknown>;
    expect(meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(meta['io.modelcontextprotocol/clientInfo']).toEqual({ name: 'testkit-client', version: '0.0.0' });
    expect(meta['io.modelcontextprotocol/clientCapabilities']).toMatchObject({
      extensions: { [TASKS_EXTENSION_ID]: {} },
    });
  });

  it('decision 11: a synchronous tool that throws answers an isError result the model can read', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'explode',
      description: 'Always throws',
      handler: () => {
        throw new Error('disk on fire');
      },
    });
    const { client } = h.connect();
    const result = await client.callTool('explode');
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'disk on fire' }] });
  });

  it('rejects invalid arguments as an isError result, and an unknown tool as -32602', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'typed',
      description: 'Needs a number',
      inputSchema: z.object({ n: z.number() }),
      handler: ({ n }) => text(String(n)),
    });
    const { client } = h.connect();
    await expect(client.callTool('typed', { n: 'x' })).resolves.toMatchObject({ isError: true });
    await expect(client.callTool('missing')).rejects.toSatisfy(
      (e) => e instanceof ProtocolError && e.code === ErrorCode.InvalidParams,
    );
  });
});

describe('MRTR rounds', () => {
  it('C22/S21/C14: elicitation, then sampling and roots in one round; requestState echoed byte-identical', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'greet',
      description: 'Greets after asking three questions',
      handler: (_args, ctx) => {
        const state = ctx.requestState as { round: number; name?: string } | undefined;
        if (state === undefined) {
          return ctx.inputRequired({
            inputRequests: {
              who: { method: 'elicitation/create', params: { message: 'Your name?', requestedSchema: NAME_SCHEMA } },
            },
            state: { round: 1 },
          });
        }
        if (state.round === 1) {
          const who = ctx.inputResponses.who as { action: string; content?: { name?: string } };
          return ctx.inputRequired({
            inputRequests: {
              poem: {
                method: 'sampling/createMessage',
                params: { messages: [{ role: 'user', content: { type: 'text', text: 'A poem' } }], maxTokens: 20 },
              },
              where: { method: 'roots/list', params: {} },
            },
            state: { round: 2, name: who.content?.name },
          });
        }
        const poem = ctx.inputResponses.poem as { content: { text: string } };
        const where = ctx.inputResponses.where as { roots: Array<{ uri: string }> };
        return text(`${state.name} | ${poem.content.text} | ${where.roots.map((r) => r.uri).join(',')}`);
      },
    });
    const asked: string[] = [];
    const { client } = h.connect({
      handlers: {
        elicitation: (params, ctx) => {
          asked.push(`${ctx.key}:${params.message}`);
          return { action: 'accept', content: { name: 'Ada' } };
        },
        sampling: (_params, ctx) => {
          asked.push(ctx.key);
          return { role: 'assistant', content: { type: 'text', text: 'roses' }, model: 'test-model' };
        },
        roots: (_params, ctx) => {
          asked.push(ctx.key);
          return { roots: [{ uri: 'file:///work', name: 'work' }] };
        },
      },
    });

    const result = await client.callTool('greet');

    expect(result.content).toEqual([{ type: 'text', text: 'Ada | roses | file:///work' }]);
    expect(asked.sort()).toEqual(['poem', 'where', 'who:Your name?']);
    const calls = h.sent('tools/call');
    expect(calls).toHaveLength(3);
    // Each retry is a new JSON-RPC request carrying the previous round's requestState unchanged.
    expect(new Set(calls.map((c) => c.message.id)).size).toBe(3);
    for (let i = 1; i < calls.length; i++) {
      const previous = (calls[i - 1]?.response as { result: { requestState: string } } | undefined)?.result;
      expect(previous?.requestState).toEqual(expect.any(String));
      expect(calls[i]?.message.params?.requestState).toBe(previous?.requestState);
    }
    expect(calls[1]?.message.params?.inputResponses).toEqual({ who: { action: 'accept', content: { name: 'Ada' } } });
    // C14: input responses carry no resultType.
    expect(calls[2]?.message.params?.inputResponses).toEqual({
      poem: { role: 'assistant', content: { type: 'text', text: 'roses' }, model: 'test-model' },
      where: { roots: [{ uri: 'file:///work', name: 'work' }] },
    });
  });

  it('S22: a tool asking for an undeclared input kind gets -32021 instead of surfacing it', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'sampler',
      description: 'Needs sampling',
      handler: (_args, ctx) =>
        ctx.inputRequired({
          inputRequests: {
            s: {
              method: 'sampling/createMessage',
              params: { messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], maxTokens: 1 },
            },
          },
        }),
    });
    const { client } = h.connect(); // no sampling handler, so sampling is not declared
    await expect(client.callTool('sampler')).rejects.toSatisfy(
      (e) =>
        e instanceof ProtocolError &&
        e.code === ErrorCode.MissingRequiredClientCapability &&
        JSON.stringify(e.data).includes('sampling'),
    );
  });

  it('C22/S10: collectInput resolves MRTR rounds before the task exists, then the task completes', async () => {
    const h = createHarness();
    h.server.tool({
      name: 'confirmThenRun',
      description: 'Confirms, then runs as a task',
      taskSupport: 'required',
      collectInput: (_args, ctx) =>
        ctx.inputResponses.ok === undefined
          ? ctx.inputRequired({
              inputRequests: {
                ok: {
                  method: 'elicitation/create',
                  params: { message: 'Proceed?', requestedSchema: { type: 'object', properties: {} } },
                },
              },
            })
          : undefined,
      handler: (_args, ctx) => text(`ran with ${(ctx.inputResponses.ok as { action: string }).action}`),
    });
    const { client } = h.connect({ handlers: { elicitation: () => ({ action: 'accept', content: {} }) } });
    const statuses: string[] = [];
    const result = await client.callTool('confirmThenRun', {}, { onStatus: (t) => statuses.push(t.status) });
    expect(result.content).toEqual([{ type: 'text', text: 'ran with accept' }]);
    const calls = h.sent('tools/call');
    expect(calls.map((c) => (c.response as { result: { resultType: string } }).result.resultType)).toEqual([
      'input_required',
      'task',
    ]);
    expect(statuses.at(-1)).toBe('completed');
  });
});

describe('task negotiation', () => {
  it('S5: a required-task tool called by a non-declaring client gets -32021 naming the extension', async () => {
    const h = createHarness();
    let ran = false;
    h.server.tool({
      name: 'longJob',
      description: 'Only runs as a task',
      taskSupport: 'required',
      handler: () => {
        ran = true;
        return text('done');
      },
    });
    const { client } = h.connect({ tasks: false });
    const error = await client.callTool('longJob').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).code).toBe(ErrorCode.MissingRequiredClientCapability);
    expect((error as ProtocolError).data).toEqual({
      requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } },
    });
    expect(ran).toBe(false);
  });

  it('S3: an optional-task tool runs synchronously for a non-declaring client and as a task otherwise', async () => {
    const h = createHarness();
    h.server.tool({ name: 'either', description: 'Either way', taskSupport: 'optional', handler: () => text('ok') });
    const plain = h.connect({ tasks: false });
    const raw = await plain.client.callToolRaw('either');
    expect(raw.kind).toBe('complete');
    const declaring = h.connect();
    const task = await declaring.client.callToolRaw('either');
    expect(task.kind).toBe('task');
    expect(await declaring.client.callTool('either')).toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
  });

  it('S19: tasks/get from a request without the extension is -32021', async () => {
    const h = createHarness();
    const { client } = h.connect({ tasks: false });
    await expect(client.getTask('whatever')).rejects.toSatisfy(
      (e) => e instanceof ProtocolError && e.code === ErrorCode.MissingRequiredClientCapability,
    );
  });
});
