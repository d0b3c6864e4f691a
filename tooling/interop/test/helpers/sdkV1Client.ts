// The official TypeScript SDK v1 client (@modelcontextprotocol/sdk 1.x, a 2025-era client: `initialize`, then a
// session) with every capability it can answer in-band: form elicitation, sampling and experimental tasks. Its
// transport is wrapped so tests can read what actually crossed the wire.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  type CreateMessageResult,
  ElicitRequestSchema,
  type ElicitResult,
  type JSONRPCMessage,
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { startToolServerHttp, TOOL_SERVER_MAIN, type ToolSet, toolServerArgs } from './toolServer.js';

/** What the SDK v1 client's elicitation handler enters for string fields (booleans get `true`). */
export const V1_ELICITED_TEXT = 'ada@example.org';

/** What the SDK v1 client's sampling handler answers. */
export const V1_SAMPLED_TEXT = 'Sampled by the SDK v1 client';

/** Forwards to a real transport and records every JSON-RPC message in both directions. */
export class RecordingTransport implements Transport {
  readonly received: JSONRPCMessage[] = [];
  readonly sent: JSONRPCMessage[] = [];
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
  readonly #inner: Transport;

  constructor(inner: Transport) {
    this.#inner = inner;
    inner.onmessage = (message, extra) => {
      this.received.push(message);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.sent.push(message);
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }
}

/** A connected SDK v1 client, what its handlers saw, and its wire record. */
export interface V1Connection {
  readonly client: Client;
  readonly wire: RecordingTransport;
  /** Params of every `elicitation/create` and `sampling/createMessage` the server sent, in order. */
  readonly serverRequests: { method: string; params: Record<string, unknown> }[];
  readonly logs: LoggingMessageNotification['params'][];
}

function answerForm(schema: { properties?: Record<string, object> }): Record<string, string | boolean> {
  const content: Record<string, string | boolean> = {};
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    content[key] = 'type' in property && property.type === 'boolean' ? true : V1_ELICITED_TEXT;
  }
  return content;
}

async function connectV1(inner: Transport): Promise<V1Connection> {
  const client = new Client(
    { name: 'sdk-v1-interop-client', version: '1.32.2' },
    { capabilities: { elicitation: {}, sampling: {}, tasks: { list: {}, cancel: {} } } },
  );
  const serverRequests: V1Connection['serverRequests'] = [];
  const logs: V1Connection['logs'] = [];
  client.setRequestHandler(ElicitRequestSchema, async (request): Promise<ElicitResult> => {
    serverRequests.push({ method: request.method, params: request.params });
    if (!('requestedSchema' in request.params)) return { action: 'decline' };
    return { action: 'accept', content: answerForm(request.params.requestedSchema) };
  });
  client.setRequestHandler(CreateMessageRequestSchema, async (request): Promise<CreateMessageResult> => {
    serverRequests.push({ method: request.method, params: request.params });
    return {
      role: 'assistant',
      content: { type: 'text', text: V1_SAMPLED_TEXT },
      model: 'interop',
      stopReason: 'endTurn',
    };
  });
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
    logs.push(notification.params);
  });
  const wire = new RecordingTransport(inner);
  try {
    await client.connect(wire);
  } catch (error) {
    await client.close();
    throw error;
  }
  return { client, wire, serverRequests, logs };
}

/** Our tool server plus a way to connect SDK v1 clients to it; {@link close} ends clients, then the server. */
export interface V1Target {
  connect(): Promise<V1Connection>;
  close(): Promise<void>;
}

function target(open: () => Transport, stopServer?: () => Promise<void>): V1Target {
  const clients: Client[] = [];
  return {
    async connect() {
      const connection = await connectV1(open());
      clients.push(connection.client);
      return connection;
    },
    async close() {
      await Promise.all(clients.splice(0).map((client) => client.close()));
      await stopServer?.();
    },
  };
}

/** Both transports, for `describe.each`: Streamable HTTP (one server process) and stdio (a process per client). */
export const V1_TARGETS: ReadonlyArray<readonly [string, (tools: ToolSet) => Promise<V1Target>]> = [
  [
    'Streamable HTTP',
    async (tools) => {
      const server = await startToolServerHttp(tools);
      return target(() => new StreamableHTTPClientTransport(new URL(server.url)), server.close);
    },
  ],
  [
    'stdio',
    async (tools) => {
      const [, ...args] = toolServerArgs('stdio', tools);
      return target(
        () =>
          new StdioClientTransport({ command: process.execPath, args: [TOOL_SERVER_MAIN, ...args], stderr: 'inherit' }),
      );
    },
  ],
];
