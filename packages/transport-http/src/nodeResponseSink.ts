import type { ServerResponse } from 'node:http';
import { withFields } from '@mcp-tasks/protocol';
import { ClientWatch } from './clientWatch.js';
import type { OpenResponse } from './exchange.js';
import { type HttpReply, JSON_HEADERS } from './httpReply.js';
import type { ResponseSink } from './responseSink.js';

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

/**
 * The node:http side of an exchange: writes into a `ServerResponse`, and closes the exchange when it closes (listened
 * for only once someone needs to know, see {@link ClientWatch}).
 */
export class NodeResponseSink extends ClientWatch implements ResponseSink {
  readonly #res: ServerResponse;
  #exchange: OpenResponse | undefined;

  constructor(res: ServerResponse) {
    super();
    this.#res = res;
  }

  /** Who hears that the response closed before it was complete (the exchange, through its `close`). */
  closeWith(exchange: OpenResponse): void {
    this.#exchange = exchange;
    this.arm();
  }

  protected startWatching(): void {
    const exchange = this.#exchange as OpenResponse;
    const onClose = (): void => exchange.close();
    // Closed already (the client left before anyone asked): the event will not come again. After a complete
    // response `closed` is true as well, and the exchange ignores a close once it is done.
    if (this.#res.closed) onClose();
    // `on`, not `once`: a response closes once, and `close` is idempotent, so the once-wrapper was pure cost.
    else this.#res.on('close', onClose);
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
    this.watchClient();
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
