import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import type { TransportNotification, TransportRequest } from '@mcp-tasks/protocol';
import { TransportError } from '@mcp-tasks/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioClientTransport, type StdioClientTransportOptions } from '../src/stdioClientTransport.js';
import { FAKE_SERVER, textUntil } from './helpers.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';
const open: StdioClientTransport[] = [];

async function connect(options: Partial<StdioClientTransportOptions> = {}): Promise<StdioClientTransport> {
  const client = await StdioClientTransport.spawn({
    command: process.execPath,
    args: [FAKE_SERVER],
    stderr: 'pipe',
    ...options,
  });
  open.push(client);
  return client;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

const req = (id: string | number, method: string, params?: TransportRequest['params']): TransportRequest => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});

describe('StdioClientTransport', () => {
  it('answers 100 concurrent requests completed out of order, correlated by id', async () => {
    const client = await connect();
    const waits = Array.from({ length: 50 }, (_, k) => client.request(req(`w${k}`, 'wait', { key: k })));
    const releases = Array.from({ length: 50 }, (_, k) => client.request(req(`r${k}`, 'release', { key: 49 - k })));
    const responses = await Promise.all([...waits, ...releases]);
    responses.forEach((response, i) => {
      expect(response.id).toBe(i < 50 ? `w${i}` : `r${i - 50}`);
    });
    expect(responses[3]).toMatchObject({ result: { waited: 3 } });
  });

  it('round-trips a 1 MiB message', async () => {
    const client = await connect();
    const blob = 'é'.repeat(512 * 1024);
    const response = await client.request(req(1, 'echo', { blob }));
    expect(response).toMatchObject({ id: 1, result: { echo: { blob } } });
  });

  it('passes argv, env and cwd to the child', async () => {
    const client = await connect({
      args: ['fakeServer.mjs'],
      cwd: dirname(FAKE_SERVER),
      env: { ...process.env, PRINCIPAL: 'alice' },
    });
    expect(await client.request(req(1, 'echo'))).toMatchObject({ result: { principal: 'alice' } });
  });

  it('delivers progress notifications to their request before the response', async () => {
    const client = await connect();
    const seen: unknown[] = [];
    const response = await client.request(req(1, 'progress', { steps: 3, _meta: { progressToken: 'p1' } }), {
      onNotification: (n) => seen.push(n.params?.progress),
    });
    expect(seen).toEqual([1, 2, 3]);
    expect(response).toMatchObject({ result: { done: true } });
  });

  it('routes listen notifications by subscriptionId and resolves with the server-sent listen result', async () => {
    const client = await connect();
    const seen: TransportNotification[] = [];
    const response = await client.request(req('sub', 'subscriptions/listen', { count: 2 }), {
      onNotification: (n) => seen.push(n),
    });
    expect(seen.map((n) => n.method)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
      'notifications/tools/list_changed',
    ]);
    expect(seen.every((n) => (n.params?._meta as Record<string, unknown> | undefined)?.[SUB] === 'sub')).toBe(true);
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 'sub',
      result: { resultType: 'complete', _meta: { [SUB]: 'sub' } },
    });
  });

  it('aborting a request rejects it locally and cancels it on the server', async () => {
    const client = await connect();
    const stderr = client.stderr;
    if (stderr === null) throw new Error('stderr not piped');
    const aborted = textUntil(stderr, 'aborted 7');
    const controller = new AbortController();
    const pending = client.request(req(7, 'hang'), { signal: controller.signal });
    controller.abort(new Error('no longer needed'));
    await expect(pending).rejects.toThrow('no longer needed');
    expect(await aborted).toContain('aborted 7: no longer needed');
  });

  it('aborting a listen ends the subscription on the server', async () => {
    const client = await connect();
    const controller = new AbortController();
    const acked = new Promise<void>((resolve) => {
      void client
        .request(req('L', 'subscriptions/listen'), { signal: controller.signal, onNotification: () => resolve() })
        .catch(() => {});
    });
    await acked;
    const stderr = client.stderr;
    if (stderr === null) throw new Error('stderr not piped');
    const aborted = textUntil(stderr, 'aborted L');
    controller.abort();
    expect(await aborted).toContain('aborted L');
    expect(await client.request(req(2, 'echo'))).toMatchObject({ id: 2 });
  });

  it('fails every in-flight and later request with TransportError(closed) when the child dies', async () => {
    const client = await connect();
    const hanging = expect(client.request(req(1, 'hang'))).rejects.toBeInstanceOf(TransportError);
    const crash = expect(client.request(req(2, 'crash'))).rejects.toMatchObject({ code: 'closed' });
    await Promise.all([hanging, crash]);
    await expect(client.request(req(3, 'echo'))).rejects.toMatchObject({ code: 'closed' });
    expect(await client.exited).toEqual({ code: 3, signal: null });
  });

  it.runIf(process.platform !== 'win32')(
    'ownProcessGroup starts the child in its own process group (a terminal Ctrl-C reaches only the client)',
    async () => {
      const pgid = (pid: number) => execFileSync('ps', ['-o', 'pgid=', '-p', String(pid)], { encoding: 'utf8' }).trim();
      const grouped = await connect({ ownProcessGroup: true });
      const plain = await connect();
      await Promise.all([grouped.request(req(1, 'echo')), plain.request(req(1, 'echo'))]);
      if (grouped.pid === undefined || plain.pid === undefined) throw new Error('no child pid');
      expect(pgid(grouped.pid)).toBe(String(grouped.pid));
      expect(pgid(plain.pid)).toBe(pgid(process.pid));
      await grouped.close();
      expect(await grouped.exited).toEqual({ code: 0, signal: null });
    },
  );

  it('close() closes stdin, the server exits on EOF (code 0) and in-flight requests fail with closed', async () => {
    // A generous grace period: on a loaded machine the child may need a while to see EOF and exit by itself.
    const client = await connect({ closeGraceMs: 20_000 });
    const stderr = client.stderr;
    if (stderr === null) throw new Error('stderr not piped');
    const aborted = textUntil(stderr, 'aborted 1');
    await client.request(req(0, 'echo')); // the child is up and reading before we close its stdin
    const hanging = expect(client.request(req(1, 'hang'))).rejects.toMatchObject({ code: 'closed' });
    await Promise.all([client.close(), client.close()]);
    await hanging;
    expect(await aborted).toContain('aborted 1');
    expect(await client.exited).toEqual({ code: 0, signal: null });
    await expect(client.notify({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'closed' });
  });

  it('escalates to SIGTERM when the child ignores EOF, and to SIGKILL when it also ignores SIGTERM', async () => {
    const stubborn = (ignoreTerm: boolean) =>
      connect({
        args: [
          '-e',
          `${ignoreTerm ? "process.on('SIGTERM', () => {});" : ''} setInterval(() => {}, 1000); process.stderr.write('ready\\n');`,
        ],
        closeGraceMs: 50,
      });
    const [term, kill] = await Promise.all([stubborn(false), stubborn(true)]);
    await Promise.all([term, kill].map((c) => (c.stderr ? textUntil(c.stderr, 'ready') : undefined)));
    await Promise.all([term.close(), kill.close()]);
    expect(await term.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(await kill.exited).toEqual({ code: null, signal: 'SIGKILL' });
  });

  it('rejects spawn with TransportError(closed) when the command does not exist', async () => {
    await expect(StdioClientTransport.spawn({ command: '/nonexistent/mcp-server' })).rejects.toMatchObject({
      name: 'TransportError',
      code: 'closed',
    });
  });

  it('passes stderr through by default and reports malformed server output as malformed_frame', async () => {
    const errors: TransportError[] = [];
    const client = await connect({
      args: ['-e', 'process.stdout.write("not json\\n[1]\\n")'],
      stderr: 'inherit',
      onError: (e) => errors.push(e),
    });
    expect(client.stderr).toBeNull();
    await client.exited;
    expect(errors.map((e) => e.code)).toEqual(['malformed_frame', 'malformed_frame']);
  });
});
