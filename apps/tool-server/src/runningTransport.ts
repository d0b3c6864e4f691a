/** A transport serving the runtime, as main.ts drives it. */
export interface RunningTransport {
  /** The endpoint URL (http and ws); undefined for stdio. */
  readonly url: string | undefined;
  /** Resolves when the transport ended on its own (stdio: the client closed stdin); never for http and ws. */
  readonly ended: Promise<void>;
  /** Stops serving and aborts in-flight requests; resolves once their handlers settled. Idempotent. */
  close(): Promise<void>;
}

import type { TransportLimits } from './limitOptions.js';
import type { OAuthOption } from './oauthResource.js';

/** Endpoint options shared by the network transports. */
export interface NetworkOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Accepted bearer tokens, one principal each; empty for an open endpoint. */
  readonly tokens: readonly string[];
  /** OAuth resource-server settings (http only); tokens then come from that issuer instead. */
  readonly auth?: OAuthOption | undefined;
  /** Limits from the command line; absent ones keep the transport's default. */
  readonly limits?: TransportLimits | undefined;
}

/** A promise that never settles: network transports end only when closed. */
export const NEVER: Promise<void> = new Promise(() => undefined);
