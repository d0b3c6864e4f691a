/**
 * A deliberately broken server for the replay's own tests: a proxy in front of the real tool server that breaks
 * exactly the behaviours the replay checks beyond shapes, so a replay against it must fail those checks.
 * - the second principal's token is swapped for the first one's (isolation gone);
 * - a call of the capabilities tool that declares no elicitation is forwarded declaring it (an undeclared kind
 *   surfaces);
 * - input keys are renamed q1, q2… by position in each tasks/get, so a key is reused for another request (answers
 *   under any name the proxy gave are mapped back, so the task still completes);
 * - a finished task's statusMessage changes on every later tasks/get (terminal state not immutable).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

type Json = Record<string, unknown>;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

export interface BrokenProxy {
  readonly url: string;
  close(): Promise<void>;
}

export async function startBrokenProxy(target: string, tokens: { main: string; other: string }): Promise<BrokenProxy> {
  const renames = new Map<string, Map<string, string>>();
  const terminalGets = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const body = JSON.parse(await readAll(req)) as Json;
      const params = (body.params ?? {}) as Json;
      breakRequest(body.method, params, renames);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      delete headers.host;
      delete headers['content-length'];
      if (headers.authorization === `Bearer ${tokens.other}`) headers.authorization = `Bearer ${tokens.main}`;
      const upstream = await fetch(target, { method: 'POST', headers, body: JSON.stringify(body) });
      const type = upstream.headers.get('content-type') ?? '';
      if (!type.startsWith('application/json')) {
        res.writeHead(upstream.status, { 'content-type': type });
        if (upstream.body === null) {
          res.end();
          return;
        }
        const stream = Readable.fromWeb(upstream.body as never);
        res.on('close', () => stream.destroy());
        stream.pipe(res);
        return;
      }
      const answer = (await upstream.json()) as Json;
      if (body.method === 'tasks/get') breakTask(answer.result as Json | undefined, renames, terminalGets);
      res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    })().catch((error: unknown) => res.writeHead(502).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function breakRequest(method: unknown, params: Json, renames: Map<string, Map<string, string>>): void {
  const meta = (params._meta ?? {}) as Json;
  const caps = meta['io.modelcontextprotocol/clientCapabilities'] as Json | undefined;
  const tool = params.name;
  if (tool === 'test_input_required_result_capabilities' && caps !== undefined && caps.elicitation === undefined) {
    caps.elicitation = {};
  }
  if (method === 'tasks/update' && typeof params.inputResponses === 'object' && params.inputResponses !== null) {
    const back = renames.get(String(params.taskId)) ?? new Map<string, string>();
    const responses: Json = {};
    for (const [key, value] of Object.entries(params.inputResponses)) responses[back.get(key) ?? key] = value;
    params.inputResponses = responses;
  }
}

function breakTask(
  task: Json | undefined,
  renames: Map<string, Map<string, string>>,
  terminalGets: Map<string, number>,
): void {
  if (task === undefined || typeof task.taskId !== 'string') return;
  if (typeof task.inputRequests === 'object' && task.inputRequests !== null) {
    const back = renames.get(task.taskId) ?? new Map<string, string>();
    const renamed: Json = {};
    Object.entries(task.inputRequests).forEach(([key, value], index) => {
      // Names given earlier stay known (q2 still reaches its key after it became q1).
      back.set(`q${index + 1}`, key);
      renamed[`q${index + 1}`] = value;
    });
    renames.set(task.taskId, back);
    task.inputRequests = renamed;
  }
  if (TERMINAL.has(String(task.status))) {
    const seen = (terminalGets.get(task.taskId) ?? 0) + 1;
    terminalGets.set(task.taskId, seen);
    if (seen > 1) task.statusMessage = `changed after the end (${seen})`;
  }
}

function readAll(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text)).on('error', reject);
  });
}
