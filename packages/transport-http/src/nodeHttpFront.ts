import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '@mcp-tasks/protocol';
import { hasDuplicateHeader } from '@mcp-tasks/transport-kit';
import type { HeaderLookup } from './checkParamHeaders.js';
import type { OpenResponse } from './exchange.js';
import type { HttpBinding } from './httpBinding.js';
import type { Authenticate, HttpHandlerOptions } from './httpHandlerOptions.js';
import { errorReply, type HttpReply } from './httpReply.js';
import { NodeResponseSink, writeReply } from './nodeResponseSink.js';
import { type ReadBodyLimits, readBody } from './readBody.js';
import type { AuthenticatedPrincipal } from './scopeCheck.js';

/** Bytes of an over-size body read and dropped so the client reads the 413 rather than a connection reset. */
const DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * The node:http front of one {@link HttpBinding}: screens each request, authenticates it, reads its body (or takes
 * what a body parser already read) and hands the message to the binding, writing whatever it answers. One per
 * `createHttpHandler` call; `handle` is the request listener.
 */
export class NodeHttpFront {
  readonly #binding: HttpBinding;
  readonly #authenticate: Authenticate | undefined;
  readonly #limits: ReadBodyLimits;
  readonly #timedOut: HttpReply;
  /** The drained variant keeps the connection: the body was read to its end. */
  readonly #tooLargeDrained: HttpReply;

  constructor(binding: HttpBinding, options: HttpHandlerOptions) {
    this.#binding = binding;
    this.#authenticate = options.authenticate;
    this.#limits = {
      maxBytes: binding.maxBodyBytes,
      drainBytes: DRAIN_BYTES,
      timeoutMs: options.bodyTimeoutMs ?? 30_000,
    };
    this.#timedOut = errorReply(408, ErrorCode.InvalidRequest, 'Request body not received in time', undefined, {
      connection: 'close',
    });
    this.#tooLargeDrained = { ...binding.tooLarge, headers: withoutConnection(binding.tooLarge.headers) };
  }

  /** The request listener: every request that reaches it is answered, and nothing throws out of it. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    const header = headerLookup(req);
    const rejected = this.#binding.screen({
      method: req.method ?? 'GET',
      header,
      host: header('host'),
      localAddress: req.socket.localAddress,
      duplicateHost: hasDuplicateHeader(req.rawHeaders, 'host'),
    });
    if (rejected !== undefined) writeReply(res, rejected);
    else if (this.#authenticate === undefined) this.#receive(req, res, header);
    else this.#authenticateThenReceive(req, res, header, this.#authenticate);
  }

  /** Ends every 2025-era session; see `HttpHandler.close`. */
  close(): void {
    this.#binding.close();
  }

  #write(res: ServerResponse, sink: NodeResponseSink, outcome: HttpReply | OpenResponse): void {
    if ('status' in outcome) writeReply(res, outcome);
    else sink.closeWith(outcome);
  }

  #dispatch(message: unknown, res: ServerResponse, header: HeaderLookup, who?: AuthenticatedPrincipal): void {
    const sink = new NodeResponseSink(res);
    this.#write(res, sink, this.#binding.dispatch(message, header, sink, who?.principal, who?.scopes));
  }

  #parseAndDispatch(
    body: Uint8Array | string,
    res: ServerResponse,
    header: HeaderLookup,
    who?: AuthenticatedPrincipal,
  ): void {
    const decoded = this.#binding.decode(body);
    if ('reply' in decoded) writeReply(res, decoded.reply);
    else this.#dispatch(decoded.message, res, header, who);
  }

  #readThenDispatch(
    req: IncomingMessage,
    res: ServerResponse,
    header: HeaderLookup,
    who?: AuthenticatedPrincipal,
  ): void {
    readBody(req, this.#limits, (body) => {
      if (body === 'too_large') writeReply(res, req.complete ? this.#tooLargeDrained : this.#binding.tooLarge);
      else if (body === 'timeout') writeReply(res, this.#timedOut);
      else if (body !== 'aborted') this.#parseAndDispatch(body, res, header, who);
    });
  }

  #receive(req: MaybeParsedRequest, res: ServerResponse, header: HeaderLookup, who?: AuthenticatedPrincipal): void {
    // A GET or DELETE that passed the screen names a session; it has no body to read.
    if (req.method !== 'POST') {
      const sink = new NodeResponseSink(res);
      this.#write(res, sink, this.#binding.dispatchBodiless(req.method ?? 'GET', header, sink, who?.principal));
      return;
    }
    const parsed = req.body;
    // Mounted behind a body parser: take its result and never read the stream twice.
    if (typeof parsed === 'string') this.#parseAndDispatch(parsed, res, header, who);
    else if (Buffer.isBuffer(parsed)) this.#parseAndDispatch(parsed, res, header, who);
    else if (parsed !== undefined) this.#dispatch(parsed, res, header, who);
    else if (req.readableEnded) this.#parseAndDispatch('', res, header, who);
    // A declared length past what is worth draining is refused at once, closing the connection.
    else if (Number(header('content-length')) > this.#limits.maxBytes + this.#limits.drainBytes) {
      writeReply(res, this.#binding.tooLarge);
    } else this.#readThenDispatch(req, res, header, who);
  }

  #authenticateThenReceive(
    req: IncomingMessage,
    res: ServerResponse,
    header: HeaderLookup,
    authenticate: Authenticate,
  ): void {
    const failed = () => writeReply(res, this.#binding.authFailed);
    let pending: ReturnType<Authenticate>;
    try {
      pending = authenticate(req);
    } catch {
      failed();
      return;
    }
    Promise.resolve(pending).then((result) => {
      const who = this.#binding.authenticated(result);
      if ('status' in who) writeReply(res, who);
      else this.#receive(req, res, header, who);
    }, failed);
  }
}

type MaybeParsedRequest = IncomingMessage & { body?: unknown };

function headerLookup(req: IncomingMessage): HeaderLookup {
  const headers = req.headers;
  // node:http joins repeated headers with ", " except a few; an array is never a valid routing value.
  return (name) => {
    const value = readHeader(headers, name);
    return typeof value === 'string' ? value : undefined;
  };
}

/**
 * `headers[name]`, with a property load of its own for each header every request reads. With one `headers[name]`
 * for all names, that load site sees every name and V8 makes it megamorphic: about 200 instructions per lookup, where
 * a load of a fixed name costs a few (measured with `pnpm bench:instructions`, see the bench README, "Fifth pass").
 */
function readHeader(headers: IncomingHttpHeaders, name: string): string | string[] | undefined {
  switch (name) {
    case 'host':
      return headers.host;
    case 'origin':
      return headers.origin;
    case 'content-length':
      return headers['content-length'];
    case 'mcp-method':
      return headers['mcp-method'];
    case 'mcp-name':
      return headers['mcp-name'];
    case 'mcp-protocol-version':
      return headers['mcp-protocol-version'];
    case 'mcp-session-id':
      return headers['mcp-session-id'];
    default:
      return headers[name];
  }
}

function withoutConnection(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const { connection: _, ...rest } = headers;
  return rest;
}
