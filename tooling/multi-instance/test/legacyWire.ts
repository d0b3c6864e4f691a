/** A raw 2025-11-25 client over Streamable HTTP: a session, requests, and answers to the server's own requests. */
import { readSseEvents } from '@mcp-tasks/transport-http';
import type { Result } from './wire.js';

/** A JSON-RPC message as it arrives on a response stream. */
interface Message {
  readonly id?: number | string;
  readonly method?: string;
  readonly params?: Result;
  readonly result?: Result;
  readonly error?: unknown;
}

/** One 2025-era session at one instance, authenticated with a bearer token. */
export class LegacyHttpClient {
  #session: string | undefined;
  #nextId = 1;

  constructor(
    readonly url: string,
    readonly token: string,
  ) {}

  /** `initialize` (with the elicitation capability), then `notifications/initialized`. */
  async connect(): Promise<Result> {
    const result = await this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: {} },
      clientInfo: { name: 'multi-instance-2025', version: '1.0.0' },
    });
    await this.#post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return result;
  }

  /**
   * Sends a request and resolves with its result (throws on a JSON-RPC error). Each request of the server on the
   * response's stream is answered with what `answer` returns for it.
   */
  async request(method: string, params: Result, answer?: (request: Message) => Result): Promise<Result> {
    const id = this.#nextId++;
    const response = await this.#post({ jsonrpc: '2.0', id, method, params });
    const session = response.headers.get('mcp-session-id');
    if (session !== null) this.#session = session;
    const replies: Promise<unknown>[] = [];
    let reply: Message | undefined;
    if (response.headers.get('content-type')?.startsWith('text/event-stream') === true && response.body !== null) {
      for await (const data of readSseEvents(response.body)) {
        const message = JSON.parse(data) as Message;
        if (message.method !== undefined && message.id !== undefined && answer !== undefined) {
          replies.push(this.#post({ jsonrpc: '2.0', id: message.id, result: answer(message) }));
        } else if (message.id === id) {
          reply = message;
          break;
        }
      }
    } else {
      reply = (await response.json()) as Message;
    }
    await Promise.all(replies);
    if (reply?.result === undefined) throw new Error(`${method} failed: ${JSON.stringify(reply)}`);
    return reply.result;
  }

  async #post(body: object): Promise<Response> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${this.token}`,
        ...(this.#session === undefined
          ? {}
          : { 'mcp-session-id': this.#session, 'mcp-protocol-version': '2025-11-25' }),
      },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`POST answered HTTP ${response.status}: ${await response.text()}`);
    return response;
  }
}
