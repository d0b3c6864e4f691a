/**
 * A scripted 2025-era server for the fake transport: answers the `server/discover` probe the way a 2025 server
 * would (configurable), `initialize` with a 2025 version, and hands every other request to `handle`.
 */
import { TransportError } from '@mcp-tasks/protocol';
import { FakeTransport, type Reply, type Responder } from '../fakeTransport.js';

/** How the fake legacy server answers `server/discover`. */
export type ProbeAnswer = 'method_not_found' | 'empty_result' | 'http_404' | 'http_400' | 'http_405';

export interface LegacyServerOptions {
  readonly probe?: ProbeAnswer;
  /** The version `initialize` answers. Default: the one the client asked for. */
  readonly version?: string;
  readonly capabilities?: Record<string, unknown>;
  readonly handle?: Responder;
}

export function legacyResponder(options: LegacyServerOptions = {}): Responder {
  return (request, context) => {
    if (request.method === 'server/discover') return probeAnswer(options.probe ?? 'method_not_found');
    if (request.method === 'initialize') {
      return {
        protocolVersion: options.version ?? request.params?.protocolVersion,
        capabilities: options.capabilities ?? { tools: {} },
        serverInfo: { name: 'legacy', version: '1' },
      };
    }
    if (options.handle !== undefined) return options.handle(request, context);
    return { error: { code: -32601, message: `Method not found: ${request.method}` } };
  };
}

function probeAnswer(answer: ProbeAnswer): Reply {
  switch (answer) {
    case 'method_not_found':
      return { error: { code: -32601, message: 'Method not found' } };
    case 'empty_result':
      return {};
    default:
      throw new TransportError('http_status', `HTTP ${answer.slice(5)}`, { status: Number(answer.slice(5)) });
  }
}

/** A fake transport in front of a legacy server; the responder sees the probe too. */
export function legacyTransport(options: LegacyServerOptions = {}): FakeTransport {
  return new FakeTransport(legacyResponder(options), { probe: 'responder' });
}

/** The requests after the handshake, by method. */
export function methods(transport: FakeTransport): string[] {
  return transport.requests.map((r) => r.message.method);
}
