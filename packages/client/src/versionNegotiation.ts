/**
 * Which protocol era a server speaks: the options that choose it and the reading of the `server/discover` probe.
 */
import { ErrorCode, isRecord, LEGACY_PROTOCOL_VERSIONS, ProtocolError, TransportError } from '@mcp-tasks/protocol';
import { InvalidResponseError } from './errors.js';
import type { RawResult } from './rpcClient.js';

/** A protocol version a client can be pinned to: 2026-07-28 or one of the 2025-era versions. */
export type PinnableProtocolVersion = '2026-07-28' | (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/**
 * How {@link McpClient} picks the protocol era.
 *
 * - `'auto'`: the first call sends `server/discover`. A discover result (it lists `supportedVersions`) or a
 *   2026-07-28 error (-32020, -32021, -32022) means the server speaks 2026-07-28, used as before. Anything else
 *   (an HTTP 400/404/405, -32601, a result without `supportedVersions`) means a 2025-era server: the client then
 *   runs the `initialize` handshake and speaks that era. The answer is remembered for the client's lifetime and
 *   asked again only after the server lost the 2025 session.
 * - `{ pin }`: no probe; speak exactly this version (a 2025-era pin runs `initialize` offering it and refuses any
 *   other answer).
 */
export type VersionNegotiation =
  | 'auto'
  | {
      /** The protocol version to speak, without probing. */
      readonly pin: PinnableProtocolVersion;
    };

/** The two protocol eras: `modern` is 2026-07-28, `legacy` the stateful 2025 protocol. */
export type ProtocolEra = 'modern' | 'legacy';

/**
 * Reads the outcome of a `server/discover` probe: `modern` for a discover result or a 2026-only error,
 * `legacy` for the answers a 2025-era server gives to a method it does not know. Rethrows what says nothing
 * about the era (the transport closed, the call was aborted, a timeout).
 */
export function eraOfProbe(outcome: { readonly result: RawResult } | { readonly error: unknown }): ProtocolEra {
  if ('result' in outcome) return Array.isArray(outcome.result.supportedVersions) ? 'modern' : 'legacy';
  const { error } = outcome;
  if (error instanceof ProtocolError) return MODERN_ERRORS.has(error.code) ? 'modern' : 'legacy';
  if (error instanceof TransportError && error.code === 'http_status') return 'legacy';
  if (error instanceof InvalidResponseError) return 'legacy';
  throw error;
}

const MODERN_ERRORS: ReadonlySet<number> = new Set([
  ErrorCode.HeaderMismatch,
  ErrorCode.MissingRequiredClientCapability,
  ErrorCode.UnsupportedProtocolVersion,
]);

/** True when `error` says a 2025-era server no longer knows the session (HTTP 404). */
export function isSessionLost(error: unknown): boolean {
  return error instanceof TransportError && error.code === 'http_status' && error.status === 404;
}

/** The pinned version when `negotiation` pins a 2025-era one. */
export function pinnedLegacyVersion(negotiation: VersionNegotiation): string | undefined {
  if (negotiation === 'auto') return undefined;
  return negotiation.pin === '2026-07-28' ? undefined : negotiation.pin;
}

/** Checks a user-supplied value early, so a typo fails at construction rather than on the first call. */
export function checkNegotiation(negotiation: unknown): VersionNegotiation {
  if (negotiation === undefined || negotiation === 'auto') return 'auto';
  const pin = isRecord(negotiation) ? negotiation.pin : undefined;
  if (pin === '2026-07-28' || (LEGACY_PROTOCOL_VERSIONS as readonly unknown[]).includes(pin))
    return { pin: pin as PinnableProtocolVersion };
  throw new RangeError(
    `versionNegotiation must be 'auto' or { pin: <protocol version> }, got ${JSON.stringify(negotiation)}`,
  );
}
