/**
 * The HTTP status for a JSON-RPC error response (streamable-http.mdx and CONFORMANCE.md 6.1): 404 for -32601;
 * 400 for parse errors, invalid requests, invalid params (missing `_meta` is pinned; the rest follow it),
 * -32020 HeaderMismatch, -32021 MissingRequiredClientCapability and -32022 UnsupportedProtocolVersion; 500 for
 * -32603. Any other code is an application-level error on a request the server did handle: 200.
 */
export function httpStatusForError(code: number): number {
  switch (code) {
    case -32601:
      return 404;
    case -32700:
    case -32600:
    case -32602:
    case -32020:
    case -32021:
    case -32022:
      return 400;
    case -32603:
      return 500;
    default:
      return 200;
  }
}
