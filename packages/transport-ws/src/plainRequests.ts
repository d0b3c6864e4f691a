import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The answer of a WebSocket-only server to plain HTTP requests: a configured JSON document for a `GET` of its path
 * (e.g. RFC 9728 protected-resource metadata), 426 Upgrade Required for anything else.
 */
export function answerPlainRequests(
  documents: Readonly<Record<string, unknown>> = {},
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const pathname = pathnameOf(request.url);
    if (request.method === 'GET' && Object.hasOwn(documents, pathname) && documents[pathname] !== undefined) {
      const body = JSON.stringify(documents[pathname]);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
      return;
    }
    response.writeHead(426, { 'content-type': 'text/plain', upgrade: 'websocket' }).end('WebSocket upgrade required');
  };
}

/**
 * The path of a request target, without its query. Never throws: `new URL` does on targets node accepts (e.g.
 * `GET http://[ HTTP/1.1`), and a throw in a request or upgrade listener would take the process down.
 */
export function pathnameOf(target: string | undefined): string {
  const url = target ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
