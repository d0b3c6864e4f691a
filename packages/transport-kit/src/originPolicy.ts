/**
 * DNS-rebinding protection (streamable-http.mdx "Security"), shared by the HTTP and WebSocket server transports so
 * one server sharing a port answers both alike: which `Host` and `Origin` values a request may carry.
 */
export interface OriginPolicy {
  /**
   * Host names accepted in the `Host` header (case-insensitive, port ignored; IPv6 in brackets). Default: on a
   * connection that arrived on a loopback address only `localhost`, `127.0.0.1` and `[::1]` (a rebound DNS name
   * pointing at 127.0.0.1 is exactly what this rejects); on other connections, any host.
   */
  readonly allowedHosts?: readonly string[];
  /**
   * Origins (`scheme://host[:port]`, case-insensitive) accepted in addition to the request's own origin (one whose
   * host:port equals the `Host` header). Requests without `Origin` (non-browser clients) are not affected.
   */
  readonly allowedOrigins?: readonly string[];
}

/** What the check needs from an inbound HTTP request or WebSocket upgrade. */
export interface OriginCheckInput {
  /** The `Host` header, if any. */
  readonly host: string | undefined;
  /** The `Origin` header, if any (browsers send it; most other clients do not). */
  readonly origin: string | undefined;
  /** The local address the connection arrived on. */
  readonly localAddress: string | undefined;
}

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Builds the `Host`/`Origin` check once (sets precomputed) so the per-request cost is a few string operations.
 * The returned function answers true when the request may proceed; transports answer 403 otherwise. It remembers the
 * last `Host` and local address it accepted without an `Origin` (the same client sends the same ones every time),
 * and answers them again without redoing the check; a function per policy, so keep one per transport.
 */
export function createOriginCheck(policy: OriginPolicy = {}): (input: OriginCheckInput) => boolean {
  const allowedHosts =
    policy.allowedHosts === undefined ? undefined : new Set(policy.allowedHosts.map((h) => h.toLowerCase()));
  const allowedOrigins = new Set((policy.allowedOrigins ?? []).map((o) => o.toLowerCase()));
  const check = (input: OriginCheckInput): boolean => {
    const host = input.host?.toLowerCase();
    if (allowedHosts !== undefined) {
      if (host === undefined || !allowedHosts.has(hostName(host))) return false;
    } else if (isLoopbackAddress(input.localAddress)) {
      if (host === undefined || !LOOPBACK_HOSTS.has(hostName(host))) return false;
    }
    const origin = input.origin?.toLowerCase();
    if (origin === undefined) return true;
    if (allowedOrigins.has(origin)) return true;
    // Same origin: the Origin names the very host the request was sent to (and that host passed the check above).
    const schemeEnd = origin.indexOf('://');
    return schemeEnd !== -1 && host !== undefined && origin.slice(schemeEnd + 3) === host;
  };
  // Without an Origin the verdict depends on the Host and the local address alone, and a client sends the same ones
  // on every request: the last pair accepted is answered again with two string comparisons (the check lower-cases
  // and slices the Host, two new strings per request).
  let acceptedHost: string | undefined;
  let acceptedOn: string | undefined;
  return (input) => {
    const { host, origin, localAddress } = input;
    if (origin === undefined && host !== undefined && host === acceptedHost && localAddress === acceptedOn) return true;
    const allowed = check(input);
    if (allowed && origin === undefined) {
      acceptedHost = host;
      acceptedOn = localAddress;
    }
    return allowed;
  };
}

/** One-off form of {@link createOriginCheck}. */
export function checkOrigin(input: OriginCheckInput, policy: OriginPolicy = {}): boolean {
  return createOriginCheck(policy)(input);
}

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
 * True when `rawHeaders` (name/value pairs, as node's `IncomingMessage.rawHeaders`) carry `name` (given in lower case;
 * matched whatever the case of the fields) more than once. Node keeps only the first of repeated `Host` headers in
 * `headers`, so a duplicate is visible only here.
 */
export function hasDuplicateHeader(rawHeaders: readonly string[], name: string): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const field = rawHeaders[i];
    if (field !== undefined && equalsIgnoringAsciiCase(field, name) && ++seen > 1) return true;
  }
  return false;
}

/**
 * `field` equals `lowerName` (lower case) once its ASCII capitals are lowered. Compared in place: this runs for every
 * HTTP request, and `toLowerCase` made a new string of each field of the same length (`Host` on every request).
 * Header names are ASCII tokens (node's parser refuses others), so ASCII folding is all `toLowerCase` did for them.
 */
function equalsIgnoringAsciiCase(field: string, lowerName: string): boolean {
  if (field.length !== lowerName.length) return false;
  for (let i = 0; i < field.length; i++) {
    const code = field.charCodeAt(i);
    if ((code >= 65 && code <= 90 ? code + 32 : code) !== lowerName.charCodeAt(i)) return false;
  }
  return true;
}
