import { invalidParams } from './errors.js';
import { isJsonObject } from './jsonRpc.js';

/** What a `requestState` is bound to: the request it came from and who sent it (MRTR replay protection). */
export interface RequestStateBinding {
  /** `tools/call`, `prompts/get` or `resources/read`. */
  readonly method: string;
  /** Tool or prompt name, or resource URI. */
  readonly name: string;
  /** The owner key of the principal (see `ownerOf`). */
  readonly principal: string;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    return Uint8Array.from(binary, (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/**
 * Signs and verifies MRTR `requestState` with HMAC-SHA-256 (Web Crypto, so it runs in any runtime). The token is
 * `base64url(payload).base64url(mac)`; the payload carries the handler's state plus the binding and an expiry, so a
 * state is rejected when tampered with, presented for another tool or prompt, by another principal, or after
 * `ttlMs`. The state is integrity-protected, not encrypted: do not put secrets in it.
 */
export class RequestStateSigner {
  readonly #key: Promise<CryptoKey>;
  readonly #ttlMs: number;
  readonly #now: () => number;

  /**
   * @param secret HMAC key material; when omitted a random key is generated, so states do not survive a restart
   *   and are not accepted by other instances. Give every instance the same secret behind a load balancer.
   * @param ttlMs How long a state stays valid. @default 600_000
   */
  constructor(secret?: string | Uint8Array, ttlMs = 600_000, now: () => number = Date.now) {
    const raw: Uint8Array<ArrayBuffer> =
      secret === undefined
        ? crypto.getRandomValues(new Uint8Array(32))
        : typeof secret === 'string'
          ? encoder.encode(secret)
          : new Uint8Array(secret);
    this.#key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    this.#ttlMs = ttlMs;
    this.#now = now;
  }

  /**
   * Wraps `state` (any JSON value) into a signed token bound to `binding`. `asked` (input-request key → method)
   * records which answers the retry must carry, so {@link open} can tell the runtime what to check.
   */
  async sign(binding: RequestStateBinding, state: unknown, asked?: Readonly<Record<string, string>>): Promise<string> {
    const payload = {
      m: binding.method,
      n: binding.name,
      p: binding.principal,
      x: this.#now() + this.#ttlMs,
      s: state,
      ...(asked === undefined ? {} : { q: asked }),
    };
    const body = toBase64Url(encoder.encode(JSON.stringify(payload)));
    const mac = await crypto.subtle.sign('HMAC', await this.#key, encoder.encode(body));
    return `${body}.${toBase64Url(new Uint8Array(mac))}`;
  }

  /** Returns the handler state inside `token`, or throws `-32602` when the token fails any check. */
  async verify(binding: RequestStateBinding, token: string): Promise<unknown> {
    return (await this.open(binding, token)).state;
  }

  /**
   * Like {@link verify}, and also returns the input requests (key → method) the round that issued `token` asked
   * for (`{}` when it recorded none).
   */
  async open(
    binding: RequestStateBinding,
    token: string,
  ): Promise<{
    /** The state the handler asked to carry. */
    readonly state: unknown;
    /** The input requests of that round, key → method. */
    readonly asked: Readonly<Record<string, string>>;
  }> {
    const [body, macText, extra] = token.split('.');
    const mac = macText === undefined ? undefined : fromBase64Url(macText);
    if (body === undefined || mac === undefined || extra !== undefined) throw invalidRequestState();
    const valid = await crypto.subtle.verify('HMAC', await this.#key, mac, encoder.encode(body));
    if (!valid) throw invalidRequestState();
    const bytes = fromBase64Url(body);
    const payload: unknown = bytes === undefined ? undefined : JSON.parse(decoder.decode(bytes));
    if (
      !isJsonObject(payload) ||
      payload.m !== binding.method ||
      payload.n !== binding.name ||
      payload.p !== binding.principal
    ) {
      throw invalidRequestState();
    }
    if (typeof payload.x !== 'number' || payload.x < this.#now()) {
      throw invalidParams('Invalid params: requestState has expired; retry the request without it');
    }
    const asked: Record<string, string> = {};
    if (isJsonObject(payload.q)) {
      for (const [key, method] of Object.entries(payload.q)) if (typeof method === 'string') asked[key] = method;
    }
    return { state: payload.s, asked };
  }
}

function invalidRequestState() {
  return invalidParams('Invalid params: requestState failed verification (tampered, or issued for another request)');
}
