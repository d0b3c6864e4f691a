import type { ServerResponse } from 'node:http';
import { withFields } from '@mcp-tasks/protocol';
import type { ResponseSink } from './exchange.js';
import { type HttpReply, JSON_HEADERS } from './httpReply.js';

/** Writes a binding reply with an exact Content-Length (keeps the connection reusable). */
export function writeReply(res: ServerResponse, reply: HttpReply): void {
  const body = reply.body;
  if (body === undefined) {
    res.writeHead(reply.status, reply.headers);
    res.end();
    return;
  }
  res.writeHead(reply.status, withFields(reply.headers, { 'content-length': Buffer.byteLength(body) }));
  res.end(body);
}

/** The node:http side of an exchange: writes into a `ServerResponse`, and closes the exchange when it closes. */
export class NodeResponseSink implements ResponseSink {
  readonly #res: ServerResponse;

  constructor(res: ServerResponse) {
    this.#res = res;
  }

  reply(status: number, body: string | undefined, headers?: Readonly<Record<string, string>>): void {
    const res = this.#res;
    if (body === undefined) {
      res.writeHead(status, headers);
      res.end();
    } else {
      const length = { 'content-type': JSON_HEADERS['content-type'], 'content-length': Buffer.byteLength(body) };
      res.writeHead(status, headers === undefined ? length : withFields(headers, length));
      res.end(body);
    }
  }

  openStream(headers: Readonly<Record<string, string>>): void {
    this.#res.writeHead(200, headers);
    // Node holds the head until the first body write; a GET stream may have nothing to say for a long time.
    this.#res.flushHeaders();
  }

  write(chunk: string): number {
    this.#res.write(chunk);
    return this.#res.writableLength;
  }

  end(): void {
    this.#res.end();
  }

  destroy(): void {
    this.#res.destroy();
  }
}
