import { META, ProtocolError } from '@mcp-tasks/protocol';
import { invalidParams } from './errors.js';
import { isJsonObject, type JsonObject } from './jsonRpc.js';
import { isLogLevel, type LogLevel } from './logLevels.js';

/** What every 2026-07-28 request carries in `params._meta`, read once on ingress. */
export interface RequestEnvelope {
  readonly protocolVersion: string;
  /** This request's own capabilities; never merged with earlier requests. */
  readonly clientCapabilities: JsonObject;
  readonly clientInfo?: JsonObject;
  /** Present only when the client asked for `notifications/message` on this request. */
  readonly logLevel?: LogLevel;
  /** Present only when the client asked for `notifications/progress` on this request. */
  readonly progressToken?: string | number;
  /** The whole `_meta` object, frozen as received. */
  readonly meta: JsonObject;
}

/**
 * Validates the per-request `_meta` in the order the conformance harness models it: presence of `_meta`,
 * `protocolVersion` and `clientCapabilities` (`-32602`), then the version itself (`-32022` with
 * `data.supported` / `data.requested`). `clientInfo` is optional.
 */
export function readEnvelope(params: JsonObject, supportedVersions: readonly string[]): RequestEnvelope {
  const meta = params._meta;
  if (!isJsonObject(meta)) {
    throw invalidParams(
      'Invalid params: params._meta is required on every request (protocolVersion, clientCapabilities)',
    );
  }
  const protocolVersion = meta[META.protocolVersion];
  if (typeof protocolVersion !== 'string') {
    throw invalidParams(`Invalid params: params._meta["${META.protocolVersion}"] is required and must be a string`);
  }
  const clientCapabilities = meta[META.clientCapabilities];
  if (!isJsonObject(clientCapabilities)) {
    throw invalidParams(`Invalid params: params._meta["${META.clientCapabilities}"] is required and must be an object`);
  }
  if (!supportedVersions.includes(protocolVersion)) {
    throw ProtocolError.unsupportedProtocolVersion([...supportedVersions], protocolVersion);
  }
  const logLevel = meta[META.logLevel];
  if (logLevel !== undefined && !isLogLevel(logLevel)) {
    throw invalidParams(`Invalid params: params._meta["${META.logLevel}"] is not a known log level`);
  }
  const progressToken = meta[META.progressToken];
  if (progressToken !== undefined && typeof progressToken !== 'string' && typeof progressToken !== 'number') {
    throw invalidParams('Invalid params: params._meta.progressToken must be a string or a number');
  }
  const clientInfo = meta[META.clientInfo];
  // The optional fields are left out when absent, and assigned rather than spread in: this runs for every request,
  // and on Node 20 each conditional spread in an object literal cost a generic copy (about 130 instructions).
  const envelope: { -readonly [K in keyof RequestEnvelope]: RequestEnvelope[K] } = {
    protocolVersion,
    clientCapabilities,
    meta,
  };
  if (isJsonObject(clientInfo)) envelope.clientInfo = clientInfo;
  if (logLevel !== undefined) envelope.logLevel = logLevel;
  if (progressToken !== undefined) envelope.progressToken = progressToken;
  return envelope;
}
