/** Why an authorization attempt stopped, in words a person can act on. */
export type OAuthErrorCode =
  | 'metadata'
  | 'registration'
  | 'consent_denied'
  | 'issuer_mismatch'
  | 'resource_mismatch'
  | 'token'
  | 'refresh_expired'
  | 'step_up_limit'
  | 'dpop'
  | 'token_exchange';

/** An OAuth flow failed; `code` says at which step, `message` says what to do. */
export class OAuthFlowError extends Error {
  /** What went wrong, for a program to act on. */
  readonly code: OAuthErrorCode;

  /** An error of kind `code`; `cause` keeps the underlying error (a library's or the server's). */
  constructor(code: OAuthErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'OAuthFlowError';
    this.code = code;
  }
}
