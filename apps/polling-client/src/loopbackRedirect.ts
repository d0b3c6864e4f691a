/**
 * The `login` command's "open this URL and wait for the redirect" step (RFC 8252 loopback redirect): a one-shot
 * HTTP listener on 127.0.0.1, the authorization URL printed for a person to open, and the redirect's URL handed to
 * the OAuth flow, which checks its `state` and `iss`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UsageError } from './cliErrors.js';

/** A listening loopback redirect endpoint. */
export interface LoopbackRedirect {
  /** `http://127.0.0.1:PORT/callback`, to register and send as `redirect_uri`. */
  readonly redirectUri: string;
  /** Prints `authorizationUrl` and resolves with the URL the browser is redirected to. */
  authorize(authorizationUrl: URL): Promise<URL>;
  /** Stops listening. */
  close(): Promise<void>;
}

const PAGE = (text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>mcp-tasks login</title></head><body><p>${text}</p></body></html>`;

/** Listens on 127.0.0.1:`port` (0: any free port). `say` prints the URL for the person. */
export async function startLoopbackRedirect(options: {
  readonly port: number;
  readonly timeoutMs: number;
  readonly say: (line: string) => void;
}): Promise<LoopbackRedirect> {
  let arrived: (url: URL) => void = () => undefined;
  const redirected = new Promise<URL>((resolve) => {
    arrived = resolve;
  });
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') return void res.writeHead(404).end();
    const refused = url.searchParams.has('error');
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', connection: 'close' })
      .end(PAGE(refused ? 'The login was refused. You can close this tab.' : 'Logged in. You can close this tab.'));
    arrived(new URL(req.url ?? '/', redirectUri));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(new UsageError(`Cannot listen on 127.0.0.1:${options.port}: ${error.message}`)),
    );
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const redirectUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return {
    redirectUri,
    authorize: async (authorizationUrl) => {
      options.say(`Open this URL in a browser to log in:\n\n  ${authorizationUrl.href}\n`);
      options.say(`Waiting for the redirect to ${redirectUri} …`);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new UsageError(`No login completed within ${options.timeoutMs / 1000} s (--login-timeout)`)),
          options.timeoutMs,
        );
      });
      try {
        return await Promise.race([redirected, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
