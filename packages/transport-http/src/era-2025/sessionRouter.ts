import { ErrorCode, isRecord, type MessageHandler, type TransportRequestId } from '@mcp-tasks/protocol';
import type { HeaderLookup } from '../checkParamHeaders.js';
import { Exchange, type ExchangeOptions, type OpenResponse } from '../exchange.js';
import { errorReply, type HttpReply } from '../httpReply.js';
import type { ResponseSink } from '../responseSink.js';
import { runHandler } from '../runHandler.js';
import type { HttpSession } from './httpSession.js';
import type { HttpSessions } from './httpSessions.js';

const SESSION_HEADER = 'mcp-session-id';
const ACCEPTED: HttpReply = Object.freeze({ status: 202, headers: {}, body: undefined });
const ENDED: HttpReply = Object.freeze({ status: 204, headers: {}, body: undefined });

function requestIdOf(message: unknown): TransportRequestId | undefined {
  const id = isRecord(message) ? message.id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

function isResponse(message: unknown): boolean {
  return (
    isRecord(message) &&
    message.method === undefined &&
    requestIdOf(message) !== undefined &&
    ('result' in message || 'error' in message)
  );
}

function isInitialize(message: unknown): boolean {
  return isRecord(message) && message.method === 'initialize' && requestIdOf(message) !== undefined;
}

/**
 * The 2025-era half of the Streamable HTTP binding: `Mcp-Session-Id` sessions for messages that `messageEra` calls
 * legacy, and the GET (server-to-client stream) and DELETE (end the session) requests that name a session.
 * 2026-07-28 messages never reach it.
 */
export class SessionRouter {
  readonly #sessions: HttpSessions;
  readonly #handle: MessageHandler;
  readonly #exchangeOptions: ExchangeOptions;

  constructor(sessions: HttpSessions, handle: MessageHandler, exchangeOptions: ExchangeOptions) {
    this.#sessions = sessions;
    this.#handle = handle;
    this.#exchangeOptions = exchangeOptions;
  }

  /**
   * A POSTed 2025-era message (the binding decided the era): the reply or exchange when it is a session's business
   * (`initialize`, or a message naming a session), else undefined (the 2026-07-28 path serves it, as it serves a
   * legacy request without a session).
   */
  post(
    message: unknown,
    header: HeaderLookup,
    sink: ResponseSink,
    principal?: string,
  ): HttpReply | Exchange | undefined {
    const sessionId = header(SESSION_HEADER);
    if (sessionId === undefined) return isInitialize(message) ? this.#initialize(message, sink, principal) : undefined;
    const session = this.#sessions.find(sessionId, principal);
    if (session === undefined) return notFound(requestIdOf(message));
    if (isResponse(message)) {
      session.deliverResponse(message);
      return ACCEPTED;
    }
    if (isRecord(message) && message.method === 'notifications/cancelled') {
      session.cancelInbound(isRecord(message.params) ? message.params.requestId : undefined);
    }
    return this.#run(message, session, sink, principal, true);
  }

  /** A GET or DELETE naming a session (the front checked the header is there). */
  bodiless(method: string, header: HeaderLookup, sink: ResponseSink, principal?: string): HttpReply | OpenResponse {
    const session = this.#sessions.find(header(SESSION_HEADER) ?? '', principal);
    if (session === undefined) return notFound(undefined);
    if (method === 'DELETE') {
      session.end();
      return ENDED;
    }
    const close = session.attachStream(sink, this.#exchangeOptions);
    return close === undefined ? CONFLICT : { close };
  }

  #initialize(message: unknown, sink: ResponseSink, principal: string | undefined): HttpReply | Exchange {
    const session = this.#sessions.create(principal);
    if (session === undefined) return tooManySessions(requestIdOf(message));
    return this.#run(message, session, sink, principal, false);
  }

  #run(
    message: unknown,
    session: HttpSession,
    sink: ResponseSink,
    principal: string | undefined,
    live: boolean,
  ): Exchange {
    const id = requestIdOf(message);
    // Made only for what names the session (a new session's stream, an accepted `initialize`): most requests of a
    // live session need no header object.
    const exchange = new Exchange(sink, principal, this.#exchangeOptions, {
      session,
      streamHeaders: live ? undefined : sessionHeaders(session),
      errorsOnOk: live,
    });
    const done = session.begin(exchange, id);
    runHandler(this.#handle, message, exchange, id, (response) => {
      done();
      const accepted = response !== undefined && 'result' in response;
      if (!live && !accepted) session.end();
      if (!live && accepted) session.commit();
      exchange.finish(response, accepted && isInitialize(message) ? sessionHeaders(session) : undefined);
    });
    return exchange;
  }
}

function sessionHeaders(session: HttpSession): Record<string, string> {
  return { [SESSION_HEADER]: session.id };
}

const CONFLICT = errorReply(409, ErrorCode.InvalidRequest, 'Conflict: this session already has a GET stream open');

function notFound(id: TransportRequestId | undefined): HttpReply {
  return errorReply(
    404,
    ErrorCode.InvalidRequest,
    'Session not found: it ended or never existed; initialize again',
    id,
  );
}

function tooManySessions(id: TransportRequestId | undefined): HttpReply {
  return errorReply(503, ErrorCode.InvalidRequest, 'Service unavailable: too many sessions', id, {
    'retry-after': '5',
  });
}
