import type { IncomingMessage } from 'node:http';

/** DNS-rebinding protection settings (streamable-http.mdx "Security"). */
export interface OriginGuardOptions {
  /**
   * Host names accepted in the `Host` header (case-insensitive, port ignored; IPv6 in brackets, e.g. `[::1]`).
   * Default: on connections that arrived on a loopback address, only `localhost`, `127.0.0.1` and `[::1]` (a
   * rebound DNS name pointing at 127.0.0.1 is exactly what this rejects); on other connections, any host.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Origins (`scheme://host[:port]`, case-insensitive) accepted in the `Origin` header, in addition to the request's
   * own origin (an `Origin` whose host:port equals the `Host` header). Requests without `Origin` (non-browser
   * clients) are not affected.
   */
  readonly allowedOrigins?: readonly string[];
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopbackAddress(address: string | undefined): boolean {
  return address !== undefined && (address.startsWith('127.') || address === '::1' || address === '::ffff:127.0.0.1');
}

/** `example.com:8080` → `example.com`; `[::1]:80` → `[::1]`. */
function hostName(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host : host.slice(0, end + 1);
  }
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * Builds the `Host`/`Origin` check. The returned function answers true when the request may proceed; the caller
 * answers 403 otherwise. Built once per handler so the per-request cost is a few string operations.
 */
export function createOriginGuard(options: OriginGuardOptions = {}): (req: IncomingMessage) => boolean {
  const allowedHosts =
    options.allowedHosts === undefined ? undefined : new Set(options.allowedHosts.map((h) => h.toLowerCase()));
  const allowedOrigins = new Set((options.allowedOrigins ?? []).map((o) => o.toLowerCase()));

  return (req) => {
    const host = req.headers.host?.toLowerCase();
    if (allowedHosts !== undefined) {
      if (host === undefined || !allowedHosts.has(hostName(host))) return false;
    } else if (isLoopbackAddress(req.socket.localAddress)) {
      if (host === undefined || !LOOPBACK_HOSTS.has(hostName(host))) return false;
    }
    const origin = req.headers.origin?.toLowerCase();
    if (origin === undefined) return true;
    if (allowedOrigins.has(origin)) return true;
    // Same-origin: the Origin names the very host the request was sent to (and that host passed the check above).
    const schemeEnd = origin.indexOf('://');
    return schemeEnd !== -1 && host !== undefined && origin.slice(schemeEnd + 3) === host;
  };
}
