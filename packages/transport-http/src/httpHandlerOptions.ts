import type { IncomingMessage } from 'node:http';
import type { AuthenticateRequest, HttpBindingOptions } from './httpBinding.js';

/**
 * Turns a node request into the principal its tasks are bound to; `null`/`undefined` means "not authenticated".
 */
export type Authenticate = AuthenticateRequest<IncomingMessage>;

/** Options of {@link createHttpHandler}. */
export interface HttpHandlerOptions extends HttpBindingOptions {
  /**
   * Turns a request into the principal its tasks are bound to (e.g. the subject of a verified bearer token). A
   * `null`/`undefined` result rejects the request with 401 and `WWW-Authenticate`; a thrown error gives 500. Runs
   * before the body is read. Without it requests are unauthenticated (`principal` undefined).
   */
  readonly authenticate?: Authenticate;
  /**
   * Time allowed to receive a request body (a body dribbled slower is answered 408 and the connection closed).
   * 0 disables. Default 30000.
   */
  readonly bodyTimeoutMs?: number;
}
