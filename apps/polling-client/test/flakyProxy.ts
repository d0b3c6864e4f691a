/**
 * A TCP proxy on 127.0.0.1 that a test can cut (every open connection reset, new ones refused by closing them at
 * once) and restore, to play a network that goes away for a while in front of a server that keeps running.
 */
import { connect, createServer, type Socket } from 'node:net';

/** A running proxy. */
export interface FlakyProxy {
  /** The port it listens on. */
  readonly port: number;
  /** Resets every open connection and drops new ones until {@link FlakyProxy.restore}. */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `127.0.0.1:targetPort` on a free port. */
export async function startFlakyProxy(targetPort: number): Promise<FlakyProxy> {
  const open = new Set<Socket>();
  let up = true;
  const server = createServer((inbound) => {
    if (!up) {
      inbound.resetAndDestroy();
      return;
    }
    const outbound = connect(targetPort, '127.0.0.1');
    for (const socket of [inbound, outbound]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    inbound.pipe(outbound).pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    cut() {
      up = false;
      for (const socket of open) socket.resetAndDestroy();
    },
    restore() {
      up = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
