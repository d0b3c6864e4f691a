/**
 * The client side of a 2025-era session against scripted node:http servers: resumption (the conformance sse-retry
 * scenario), sessionless servers, GET stream refusal and reconnection, server cancellation, and the 2026 wire next
 * to a legacy session. Rule ids from LEGACY-CHECKLIST (L-C*).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ClientPeerHandler, TransportRequest } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpClientTransport } from '../../src/client.js';
import { describeOverEachFetch, fetchInUse } from '../eachFetch.js';
import { rpc } from '../fakes.js';

interface Seen {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown> | undefined;
}

type Script = (req: IncomingMessage, res: ServerResponse, body: Record<string, unknown> | undefined) => void;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function scripted(script: Script) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    req.on('end', () => {
      const body = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
      seen.push({ method: req.method ?? '', headers: req.headers, body });
      script(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, seen };
}

function client(url: string, handler?: ClientPeerHandler): HttpClientTransport {
  const transport = new HttpClientTransport({
    url,
    reconnect: { initialDelayMs: 5, maxAttempts: 3 },
    fetch: fetchInUse(),
  });
  if (handler !== undefined) transport.setPeerHandler(handler);
  closers.push(() => transport.close());
  return transport;
}

function json(res: ServerResponse, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sse(res: ServerResponse, headers: Record<string, string> = {}): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
}

const initResult = (id: unknown) => ({
  jsonrpc: '2.0',
  id,
  result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'raw', version: '1' } },
});
const initialize: TransportRequest = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const call: TransportRequest = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add', arguments: {} } };
const answer = { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '3' }] } };
const idleHandler: ClientPeerHandler = {
  onRequest: async (request) => ({ jsonrpc: '2.0', id: request.id, result: {} }),
  onNotification: () => {},
};

// Every test runs on the global fetch (the default) and on nodeHttpFetch.
describeOverEachFetch(() => {
  describe('HttpClientTransport 2025-era session (scripted servers)', () => {
    it('L-C9 (sse-retry): skips the priming event, waits retry, resumes with GET + Last-Event-ID', async () => {
      const { url, seen } = await scripted((req, res, body) => {
        const session = { 'mcp-session-id': 'session-1' };
        if (req.method === 'GET') {
          sse(res, session);
          res.write(`id: event-2\ndata: ${JSON.stringify(answer)}\n\n`);
          return;
        }
        if (body?.method === 'initialize') return json(res, initResult(body.id), session);
        if (body?.method === 'tools/call') {
          sse(res, session);
          res.end('id: event-1\nretry: 50\ndata: \n\n');
          return;
        }
        res.writeHead(202).end();
      });
      const transport = client(url);
      await transport.request(initialize);
      expect(await transport.request(call)).toEqual(answer);
      const get = seen.find((s) => s.method === 'GET');
      expect(get?.headers['last-event-id']).toBe('event-1');
      expect(get?.headers['mcp-session-id']).toBe('session-1');
      expect(get?.headers['mcp-protocol-version']).toBe('2025-06-18');
    });

    it('L-C9: a stream that ends without an event id (nothing to resume) rejects closed, without a GET', async () => {
      const { url, seen } = await scripted((_req, res, body) => {
        if (body?.method === 'initialize') return json(res, initResult(body.id));
        sse(res);
        res.end(': nothing\n\n');
      });
      const transport = client(url);
      await transport.request(initialize);
      await expect(transport.request(call)).rejects.toMatchObject({ code: 'closed' });
      expect(seen.map((s) => s.method)).toEqual(['POST', 'POST']);
    });

    it('L-C9: gives up resuming after maxAttempts GETs that bring nothing', async () => {
      const { url, seen } = await scripted((req, res, body) => {
        if (body?.method === 'initialize') return json(res, initResult(body.id));
        sse(res);
        res.end(req.method === 'GET' ? '' : 'id: 1\ndata:\n\n');
      });
      const transport = client(url);
      await transport.request(initialize);
      await expect(transport.request(call)).rejects.toMatchObject({ code: 'closed' });
      expect(seen.filter((s) => s.method === 'GET')).toHaveLength(3);
    });

    it('L-C7: a sessionless server: version header only, no session id, no DELETE on close', async () => {
      const { url, seen } = await scripted((_req, res, body) => {
        if (body?.method === 'initialize') return json(res, initResult(body.id));
        if (body?.id !== undefined) return json(res, answer);
        res.writeHead(202).end();
      });
      const transport = client(url);
      await transport.request(initialize);
      await transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(await transport.request(call)).toEqual(answer);
      await transport.close();
      expect(seen.map((s) => s.method)).toEqual(['POST', 'POST', 'POST']);
      for (const { headers } of seen.slice(1)) {
        expect(headers['mcp-session-id']).toBeUndefined();
        expect(headers['mcp-protocol-version']).toBe('2025-06-18');
      }
    });

    it('L-C7: a new initialize starts over: no session id on it, the new one afterwards', async () => {
      let sessions = 0;
      const { url, seen } = await scripted((_req, res, body) => {
        if (body?.method === 'initialize')
          return json(res, initResult(body.id), { 'mcp-session-id': `s${++sessions}` });
        json(res, answer);
      });
      const transport = client(url);
      await transport.request(initialize);
      await transport.request(initialize);
      await transport.request(call);
      expect(seen.map((s) => s.headers['mcp-session-id'])).toEqual([undefined, undefined, 's2']);
      expect(transport.sessionId).toBe('s2');
    });

    it('L-C10: a GET answered 405 is not retried', async () => {
      const { url, seen } = await scripted((req, res, body) => {
        if (req.method === 'GET') return void res.writeHead(405).end();
        if (body?.method === 'initialize') return json(res, initResult(body.id), { 'mcp-session-id': 's' });
        if (body?.id !== undefined) return json(res, { ...answer, id: body.id });
        res.writeHead(202).end();
      });
      const transport = client(url, idleHandler);
      await transport.request(initialize);
      await transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await vi.waitFor(() => expect(seen.some((s) => s.method === 'GET')).toBe(true));
      // Installing a handler again would open the stream if 405 had not ended it for the session.
      transport.setPeerHandler(idleHandler);
      for (let i = 0; i < 5; i++) await transport.request({ ...call, id: 10 + i });
      expect(seen.filter((s) => s.method === 'GET')).toHaveLength(1);
    });

    it('L-C10: a dropped GET stream reconnects after retry with Last-Event-ID; its notifications reach the handler', async () => {
      let gets = 0;
      const { url, seen } = await scripted((req, res, body) => {
        if (req.method === 'GET') {
          sse(res);
          gets++;
          const note = { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: gets } };
          if (gets === 1) res.end(`id: g1\nretry: 10\ndata: ${JSON.stringify(note)}\n\n`);
          else res.write(`id: g2\ndata: ${JSON.stringify(note)}\n\n`);
          return;
        }
        if (body?.method === 'initialize') return json(res, initResult(body.id), { 'mcp-session-id': 's' });
        res.writeHead(202).end();
      });
      const logged: unknown[] = [];
      const transport = client(url, { ...idleHandler, onNotification: (n) => logged.push(n.params?.data) });
      await transport.request(initialize);
      await transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await vi.waitFor(() => expect(logged).toEqual([1, 2]));
      const [, second] = seen.filter((s) => s.method === 'GET');
      expect(second?.headers['last-event-id']).toBe('g1');
    });

    it('L-C9/L-C11: notifications/cancelled for a server request aborts the handler signal and sends no response', async () => {
      const posted: unknown[] = [];
      let stream: ServerResponse | undefined;
      const { url } = await scripted((_req, res, body) => {
        if (body?.method === 'initialize') return json(res, initResult(body.id), { 'mcp-session-id': 's' });
        if (body?.method === 'tools/call') {
          stream = res;
          sse(res);
          res.write(
            `data: ${JSON.stringify({ jsonrpc: '2.0', id: 'srv-1', method: 'elicitation/create', params: {} })}\n\n`,
          );
          return;
        }
        posted.push(body);
        res.writeHead(202).end();
      });
      let aborted = false;
      let settled = false;
      const transport = client(url, {
        onRequest: (request, { signal }) =>
          new Promise((resolve) => {
            signal.addEventListener('abort', () => {
              aborted = true;
              resolve({ jsonrpc: '2.0', id: request.id, result: { action: 'cancel' } });
              settled = true;
            });
            // Tell the server the handler is waiting, so it can cancel.
            const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'srv-1' } };
            stream?.write(`data: ${JSON.stringify(cancel)}\n\n`);
            stream?.end(`data: ${JSON.stringify(answer)}\n\n`);
          }),
        onNotification: () => {},
      });
      await transport.request(initialize);
      expect(await transport.request(call)).toEqual(answer);
      await vi.waitFor(() => expect(settled).toBe(true));
      // One more round trip: a response POSTed after the abort would have reached the server before this one.
      await transport.request({ jsonrpc: '2.0', id: 3, method: 'ping' }).catch(() => {});
      expect(aborted).toBe(true);
      expect(posted.filter((p) => (p as { id?: unknown }).id === 'srv-1')).toEqual([]);
    });

    it('bounds the server requests it runs at once (maxServerRequests) and refuses an id still running', async () => {
      const posted: Record<string, unknown>[] = [];
      const { url } = await scripted((_req, res, body) => {
        if (body?.method === 'initialize') return json(res, initResult(body.id), { 'mcp-session-id': 's' });
        if (body?.method === 'tools/call') {
          sse(res);
          for (const id of ['srv-1', 'srv-1', 'srv-2']) {
            res.write(`data: ${JSON.stringify({ jsonrpc: '2.0', id, method: 'roots/list' })}\n\n`);
          }
          res.end(`data: ${JSON.stringify(answer)}\n\n`);
          return;
        }
        if (body !== undefined) posted.push(body);
        res.writeHead(202).end();
      });
      const transport = new HttpClientTransport({ url, maxServerRequests: 1, fetch: fetchInUse() });
      closers.push(() => transport.close());
      const running: unknown[] = [];
      // Parks every server request: only the refusals are answered.
      transport.setPeerHandler({
        onRequest: (request) => new Promise(() => running.push(request.id)),
        onNotification: () => {},
      });
      await transport.request(initialize);
      expect(await transport.request(call)).toEqual(answer);
      await vi.waitFor(() => expect(posted).toHaveLength(2));
      expect(running).toEqual(['srv-1']);
      expect(posted).toEqual([
        {
          jsonrpc: '2.0',
          id: 'srv-1',
          error: { code: -32600, message: 'Invalid Request: a request with this id is still in flight' },
        },
        {
          jsonrpc: '2.0',
          id: 'srv-2',
          error: {
            code: -32600,
            message: 'Invalid Request: too many server requests running (limit 1)',
            data: { limit: 'maxServerRequests', max: 1 },
          },
        },
      ]);
    });

    it('L-C8: 2026 messages keep their headers and carry no session headers next to a legacy session', async () => {
      const { url, seen } = await scripted((_req, res, body) => {
        if (body?.method === 'initialize') return json(res, initResult(body.id), { 'mcp-session-id': 's' });
        json(res, { jsonrpc: '2.0', id: body?.id, result: { resultType: 'complete' } });
      });
      const transport = client(url);
      await transport.request(initialize);
      await transport.request(rpc(5, 'server/discover'));
      const modern = seen.at(-1)?.headers ?? {};
      expect(modern['mcp-method']).toBe('server/discover');
      expect(modern['mcp-protocol-version']).toBe('2026-07-28');
      expect(modern['mcp-session-id']).toBeUndefined();
    });

    it('L-C9: aborting a request POSTs notifications/cancelled with the session headers; never for initialize', async () => {
      const { url, seen } = await scripted((_req, res, body) => {
        if (body?.method === 'initialize') return json(res, initResult(body.id), { 'mcp-session-id': 's' });
        if (body?.method === 'tools/call') return void sse(res);
        res.writeHead(202).end();
      });
      const transport = client(url);
      await transport.request(initialize);
      const controller = new AbortController();
      const pending = transport.request(call, { signal: controller.signal });
      await vi.waitFor(() => expect(seen.some((s) => s.body?.method === 'tools/call')).toBe(true));
      controller.abort(new Error('user gave up'));
      await expect(pending).rejects.toThrow('user gave up');
      await vi.waitFor(() => {
        const cancelled = seen.find((s) => s.body?.method === 'notifications/cancelled');
        expect(cancelled?.body?.params).toEqual({ requestId: 2, reason: 'user gave up' });
        expect(cancelled?.headers['mcp-session-id']).toBe('s');
      });
    });

    it('L-C5: aborting initialize sends no notifications/cancelled', async () => {
      const { url, seen } = await scripted((_req, res, body) => {
        if (body?.method === 'initialize') return void sse(res);
        if (body?.id !== undefined) return json(res, { jsonrpc: '2.0', id: body.id, result: {} });
        res.writeHead(202).end();
      });
      const transport = client(url);
      const controller = new AbortController();
      const pending = transport.request(initialize, { signal: controller.signal });
      await vi.waitFor(() => expect(seen).toHaveLength(1));
      controller.abort(new Error('stop'));
      await expect(pending).rejects.toThrow('stop');
      // A cancellation POSTed on abort would have reached the server before this round trip.
      await transport.request({ jsonrpc: '2.0', id: 9, method: 'ping' });
      expect(seen.map((s) => s.body?.method)).toEqual(['initialize', 'ping']);
    });

    it('L-C10: while resuming, a response that arrives on the GET stream settles the request', async () => {
      let standing: ServerResponse | undefined;
      const { url } = await scripted((req, res, body) => {
        if (req.method === 'GET' && req.headers['last-event-id'] === undefined) {
          standing = res;
          return void sse(res);
        }
        if (req.method === 'GET') {
          // Refuse the resumption, and deliver the answer on the other stream instead.
          standing?.write(`data: ${JSON.stringify(answer)}\n\n`);
          return void res.writeHead(409).end();
        }
        if (body?.method === 'initialize') return json(res, initResult(body.id), { 'mcp-session-id': 's' });
        if (body?.method === 'tools/call') {
          sse(res);
          return void res.end('id: p1\nretry: 5\ndata:\n\n');
        }
        res.writeHead(202).end();
      });
      const transport = client(url, idleHandler);
      await transport.request(initialize);
      await transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await vi.waitFor(() => expect(standing).toBeDefined());
      expect(await transport.request(call)).toEqual(answer);
    });
  });
});
