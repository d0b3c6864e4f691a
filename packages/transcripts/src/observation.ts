import type { TransportNotification } from '@mcp-tasks/protocol';
import type { Principal } from './wire.js';

/** One exchange as a replay saw it, in the order it was sent; the behaviour checks read these. */
export interface Observation {
  /** The principal the request was sent as. */
  readonly as: Principal;
  /** The JSON-RPC method. */
  readonly method: string;
  /** The params as sent, placeholders filled. */
  readonly params: Record<string, unknown>;
  /** The response body; undefined for a listen stream closed by the client, or while one is open. */
  response: Record<string, unknown> | undefined;
  /** The notifications the server sent about the request, in arrival order (a listen stream's keep growing). */
  readonly notifications: TransportNotification[];
  /** When the response arrived (ms since the epoch), for ordering against other exchanges. */
  answeredAt: number;
}
