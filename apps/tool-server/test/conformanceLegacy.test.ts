import type {
  OutboundRequest,
  PeerSession,
  RequestContext,
  TransportNotification,
  TransportResponse,
} from '@mcp-tasks/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolServer } from '../src/createToolServer.js';

/**
 * The fixture on the 2025-11-25 wire, as the conformance suite's default (SDK v1) client drives it: `initialize`
 * with `{sampling:{}, elicitation:{}}`, `notifications/initialized`, then plain requests on the session, with the
 * client answering the server's requests.
 */
class LegacySession implements PeerSession {
  readonly id = 'conformance-session';
  readonly closed = new AbortController().signal;
  readonly requests: OutboundRequest[] = [];
  readonly notifications: TransportNotification[] = [];
  #nextId = 1;

  constructor(
    readonly server: ReturnType<typeof createToolServer>,
    readonly answer: (request: OutboundRequest) => Record<string, unknown> = () => ({}),
  ) {}

  notify(notification: TransportNotification): void {
    this.notifications.push(notification);
  }

  async request(message: OutboundRequest): Promise<TransportResponse> {
    this.requests.push(message);
    return { jsonrpc: '2.0', id: this.requests.length, result: this.answer(message) };
  }

  async send(method: string, params?: Record<string, unknown>) {
    const notifications: TransportNotification[] = [];
    const context: RequestContext = {
      notify: (notification) => notifications.push(notification),
      signal: new AbortController().signal,
      session: this,
    };
    const id = this.#nextId++;
    const response = await this.server.handle({ jsonrpc: '2.0', id, method, params }, context);
    if (response === undefined || !('result' in response)) throw new Error(`${method}: ${JSON.stringify(response)}`);
    return { result: response.result as Record<string, unknown>, notifications };
  }

  async connect(): Promise<void> {
    await this.send('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { sampling: {}, elicitation: {} },
      clientInfo: { name: 'conformance-test-client', version: '1.0.0' },
    });
    await this.server.handle(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        notify: () => {},
        signal: new AbortController().signal,
        session: this,
      },
    );
  }
}

let server: ReturnType<typeof createToolServer>;
beforeEach(() => {
  server = createToolServer({ tools: 'conformance' });
});
afterEach(() => server.close());

/** The `requestedSchema.properties` of the first request the server sent. */
function formProperties(session: LegacySession): Record<string, Record<string, unknown>> {
  const params = session.requests[0]?.params as { requestedSchema?: { properties?: object } } | undefined;
  return (params?.requestedSchema?.properties ?? {}) as Record<string, Record<string, unknown>>;
}

const firstText = (result: Record<string, unknown>) => (result.content as { text?: string }[])[0]?.text;

describe('conformance fixture on the 2025-11-25 wire', () => {
  it('tools-call-with-logging: setLevel debug, then three notifications/message on the call', async () => {
    const session = new LegacySession(server);
    await session.connect();
    expect((await session.send('logging/setLevel', { level: 'debug' })).result).toStrictEqual({});
    const { result, notifications } = await session.send('tools/call', {
      name: 'test_tool_with_logging',
      arguments: {},
    });
    expect(firstText(result)).toBe('Logging tool completed');
    expect(notifications.filter((n) => n.method === 'notifications/message')).toHaveLength(3);
  });

  it('tools-call-with-progress: progress-test-1 gets three non-decreasing notifications', async () => {
    const session = new LegacySession(server);
    await session.connect();
    const { notifications } = await session.send('tools/call', {
      name: 'test_tool_with_progress',
      arguments: {},
      _meta: { progressToken: 'progress-test-1' },
    });
    const values = notifications.map((n) => (n.params as { progress: number; progressToken: string }).progress);
    expect(values).toEqual([0, 50, 100]);
  });

  it('tools-call-sampling: test_sampling sends sampling/createMessage with the prompt', async () => {
    const session = new LegacySession(server, () => ({
      role: 'assistant',
      content: { type: 'text', text: 'This is a test response from the client' },
      model: 'test-model',
      stopReason: 'endTurn',
    }));
    await session.connect();
    const { result } = await session.send('tools/call', {
      name: 'test_sampling',
      arguments: { prompt: 'Test prompt' },
    });
    expect(firstText(result)).toBe('LLM response: This is a test response from the client');
    expect(session.requests).toEqual([
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Test prompt' } }], maxTokens: 100 },
      },
    ]);
  });

  it('tools-call-elicitation: test_elicitation asks for username and email', async () => {
    const session = new LegacySession(server, () => ({
      action: 'accept',
      content: { username: 'testuser', email: 'test@example.com' },
    }));
    await session.connect();
    const { result } = await session.send('tools/call', {
      name: 'test_elicitation',
      arguments: { message: 'Please provide your information' },
    });
    expect(firstText(result)).toContain('testuser');
    const params = session.requests[0]?.params as { message: string; requestedSchema: { required: string[] } };
    expect(session.requests[0]?.method).toBe('elicitation/create');
    expect(params.message).toBe('Please provide your information');
    expect(params.requestedSchema.required).toEqual(['username', 'email']);
  });

  it('elicitation-sep1034-defaults: every primitive field carries its default', async () => {
    const session = new LegacySession(server, () => ({ action: 'accept', content: { name: 'Jane Smith' } }));
    await session.connect();
    await session.send('tools/call', { name: 'test_elicitation_sep1034_defaults', arguments: {} });
    const properties = formProperties(session);
    expect(properties).toMatchObject({
      name: { type: 'string', default: 'John Doe' },
      age: { type: 'integer', default: 30 },
      score: { type: 'number', default: 95.5 },
      status: { type: 'string', default: 'active', enum: expect.arrayContaining(['active']) },
      verified: { type: 'boolean', default: true },
    });
  });

  it('elicitation-sep1330-enums: the five enum shapes', async () => {
    const session = new LegacySession(server, () => ({ action: 'accept', content: { untitledSingle: 'option1' } }));
    await session.connect();
    await session.send('tools/call', { name: 'test_elicitation_sep1330_enums', arguments: {} });
    const p = formProperties(session);
    expect(p.untitledSingle).toMatchObject({ type: 'string', enum: expect.any(Array) });
    expect(p.untitledSingle).not.toHaveProperty('oneOf');
    expect(p.titledSingle).toMatchObject({
      type: 'string',
      oneOf: [{ const: 'value1', title: 'First Option' }, {}, {}],
    });
    expect(p.legacyEnum).toMatchObject({
      type: 'string',
      enum: ['opt1', 'opt2', 'opt3'],
      enumNames: ['Option One', 'Option Two', 'Option Three'],
    });
    expect(p.untitledMulti).toMatchObject({ type: 'array', items: { type: 'string', enum: expect.any(Array) } });
    expect(p.titledMulti).toMatchObject({ type: 'array', items: { anyOf: [{ const: 'value1' }, {}, {}] } });
  });

  it('prompts, resources, completion and subscriptions answer in 2025 shapes', async () => {
    const session = new LegacySession(server);
    await session.connect();
    const prompt = await session.send('prompts/get', {
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'first', arg2: 'second' },
    });
    expect(JSON.stringify(prompt.result)).toContain('first');
    expect(prompt.result).not.toHaveProperty('resultType');
    const text = await session.send('resources/read', { uri: 'test://static-text' });
    expect(text.result).not.toHaveProperty('ttlMs');
    expect(text.result.contents).toMatchObject([{ uri: 'test://static-text', text: expect.any(String) }]);
    const template = await session.send('resources/read', { uri: 'test://template/123/data' });
    expect(JSON.stringify(template.result)).toContain('123');
    const completion = await session.send('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: '' },
    });
    expect(Array.isArray((completion.result.completion as { values: unknown }).values)).toBe(true);
    expect((await session.send('resources/subscribe', { uri: 'test://watched-resource' })).result).toStrictEqual({});
    expect((await session.send('resources/unsubscribe', { uri: 'test://watched-resource' })).result).toStrictEqual({});
    expect((await session.send('ping')).result).toStrictEqual({});
  });
});
