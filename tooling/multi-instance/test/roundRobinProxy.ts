import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A load balancer in a few lines: each request goes to the next upstream in turn, bodies streamed both ways. */
export interface RoundRobinProxy {
  /** The proxy's `/mcp` endpoint. */
  readonly url: string;
  /** Replaces the upstreams (after a restart the servers listen on new ports). */
  setUpstreams(urls: readonly string[]): void;
  /** How many requests each upstream (by URL) received. */
  readonly counts: Map<string, number>;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(upstreams: readonly string[]): Promise<RoundRobinProxy> {
  let targets = upstreams.map((url) => new URL(url));
  let next = 0;
  const counts = new Map<string, number>();
  const server = createServer((incoming, outgoing) => {
    const target = targets[next++ % targets.length] as URL;
    counts.set(target.href, (counts.get(target.href) ?? 0) + 1);
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        path: incoming.url,
        method: incoming.method,
        headers: incoming.headers,
      },
      (upstream) => {
        outgoing.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(outgoing);
      },
    );
    forward.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    // A client that goes away (a closed listen stream) ends the upstream request too.
    outgoing.on('close', () => forward.destroy());
    incoming.pipe(forward);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    counts,
    setUpstreams(urls) {
      targets = urls.map((url) => new URL(url));
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
