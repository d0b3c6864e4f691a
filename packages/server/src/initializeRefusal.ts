import { ErrorCode, META, ProtocolError } from '@mcp-tasks/protocol';
import { isJsonObject, type JsonObject } from './jsonRpc.js';

/**
 * `initialize` outside a 2025-era session. One carrying the 2026 envelope gets `-32601` like any removed method.
 * A 2025-era handshake reaches this only on a transport that carries no sessions (a session-carrying transport
 * hands it to the legacy layer): it gets `-32022` with `data.supported` and the version it asked for, since over
 * such a transport only the stateless versions can be spoken, and this error may be all its user ever sees.
 */
export function refuseInitialize(params: JsonObject, supported: readonly string[]): ProtocolError {
  const meta = params._meta;
  if (isJsonObject(meta) && typeof meta[META.protocolVersion] === 'string') {
    return new ProtocolError(
      ErrorCode.MethodNotFound,
      `Method not found: initialize (MCP ${supported.join(', ')} has no initialize handshake)`,
    );
  }
  const requested = typeof params.protocolVersion === 'string' ? params.protocolVersion : 'unknown';
  return ProtocolError.unsupportedProtocolVersion(
    supported,
    requested,
    `Unsupported protocol version ${requested}: this transport carries no sessions, so this server speaks only ` +
      `MCP ${supported.join(', ')} here, which has no initialize handshake`,
  );
}
