import type { IncomingMessage } from 'node:http';
import { createOriginCheck, type OriginPolicy } from '@mcp-tasks/transport-kit';

/** DNS-rebinding protection settings (streamable-http.mdx "Security"); see {@link OriginPolicy}. */
export type OriginGuardOptions = OriginPolicy;

/** The `Host`/`Origin` check for node:http requests: true when the request may proceed (403 otherwise). */
export function createOriginGuard(options: OriginGuardOptions = {}): (req: IncomingMessage) => boolean {
  const check = createOriginCheck(options);
  return (req) => check({ host: req.headers.host, origin: req.headers.origin, localAddress: req.socket.localAddress });
}
