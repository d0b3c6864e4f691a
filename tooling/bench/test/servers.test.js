import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { closedLoop, requestTemplate } from '../src/clients/closedLoop.js';
import { stdioChannel } from '../src/clients/stdioChannel.js';
import { startServer } from '../src/lib/child.js';
import { postJson } from '../src/lib/httpLoad.js';
import { greetCall, httpHeaders, tasksGet } from '../src/lib/messages.js';
import { legacyGreetCall, legacyHeaders, openLegacySession } from '../src/lib/sessions.js';

// Smoke tests of the benchmark servers: each answers what the cases expect, so a broken composition fails here
// rather than as a silently meaningless number.
describe('benchmark servers', () => {
  const started = [];
  const start = async (...args) => {
    const server = await startServer(...args);
    started.push(server);
    return server;
  };
  after(() => Promise.all(started.map((server) => server.stop())));

  it('ours on node:http answers tasks/get with a working task and greets synchronously', async () => {
    const ours = await start('oursHttp');
    const get = tasksGet(ours.info.taskId);
    const reply = await postJson(ours.info.url, get, httpHeaders(get));
    assert.equal(reply.result.status, 'working');
    assert.equal(reply.result.taskId, ours.info.taskId);
    const greet = greetCall();
    const greeting = await postJson(ours.info.url, greet, httpHeaders(greet));
    assert.equal(greeting.result.content[0].text, 'Hello, bench!');
  });

  it('ours through the fetch-API core answers tasks/get with a working task', async () => {
    const ours = await start('oursFetch');
    const get = tasksGet(ours.info.taskId);
    const reply = await postJson(ours.info.url, get, httpHeaders(get));
    assert.equal(reply.result.status, 'working');
  });

  it('ours greets in a 2025-era session (initialize once, then tools/call with Mcp-Session-Id)', async () => {
    const ours = await start('oursHttp');
    const headers = await openLegacySession(ours.info.url);
    assert.match(headers['mcp-session-id'], /\S/);
    const greeting = await postJson(ours.info.url, legacyGreetCall(), headers);
    assert.equal(greeting.result.content[0].text, 'Hello, bench!');
  });

  it('the SDK v1 server greets statelessly and in a session', async () => {
    const stateless = await start('sdkV1Greet', { env: { BENCH_SDK_MODE: 'stateless' } });
    const once = await postJson(stateless.info.url, legacyGreetCall(), legacyHeaders());
    assert.equal(once.result.content[0].text, 'Hello, bench!');
    const session = await start('sdkV1Greet', { env: { BENCH_SDK_MODE: 'session' } });
    const headers = await openLegacySession(session.info.url);
    const greeting = await postJson(session.info.url, legacyGreetCall(), headers);
    assert.equal(greeting.result.content[0].text, 'Hello, bench!');
  });

  for (const [name, label, id] of [
    ['fetchEcho', 'the fetch echo on @hono/node-server', 9],
    ['rawHttpEcho', 'the raw HTTP echo', 7],
  ]) {
    it(`${label} answers with the given result and the request id`, async () => {
      const echo = await start(name, { env: { BENCH_ECHO_RESULT: JSON.stringify({ status: 'working' }) } });
      const message = tasksGet('t', id);
      assert.deepEqual(await postJson(echo.info.url, message, httpHeaders(message)), {
        jsonrpc: '2.0',
        id,
        result: { status: 'working' },
      });
    });
  }

  it('the closed loop matches every stdio reply to its request', async () => {
    const ours = await start('oursStdio', { pipe: true });
    const run = await closedLoop({
      channels: [stdioChannel(ours.child)],
      inFlight: 10,
      seconds: 0.2,
      requestText: requestTemplate(tasksGet(ours.info.taskId)),
    });
    assert.ok(run.total > 0);
    assert.ok(run.rate > 0);
  });

  it('reports CPU time and memory over IPC', async () => {
    const echo = await start('rawStdioEcho', { pipe: true });
    const stats = await echo.stats();
    assert.ok(stats.cpuMicros > 0);
    assert.ok(stats.memory.rss > 0);
  });
});
