import { McpClient } from '@mcp-tasks/client';
import { HttpClientTransport } from '@mcp-tasks/transport-http';
import { startServer } from '../lib/child.js';
import { percentile, summarize } from '../lib/stats.js';
import { latencyInFlightRow, observedSleep } from './latencyInFlight.js';

const now = () => performance.timeOrigin + performance.now();

/**
 * Runs `count` tasks, `concurrency` at a time, each sleeping 150–250 ms on the server (long enough for the listen
 * stream to be live before the task ends, so notifications are what is measured), and returns for each the
 * delay from its completion on the server (stamped by the tool) to the moment the client runtime observed it.
 */
async function observeCompletions(client, count, concurrency) {
  const delays = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      delays.push(await observedSleep(client, 150 + Math.floor(Math.random() * 100)));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return delays;
}

/** One raw SSE push observed with fetch: resolves with push delay (ms) measured like ours. */
async function rawPush(url) {
  const response = await fetch(url, { method: 'POST', body: '{}' });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the SSE stream ended without an event');
    text += value;
    const match = /data: (.*)\n\n/.exec(text);
    if (match !== null) {
      const observedAt = now();
      await reader.cancel();
      return observedAt - JSON.parse(match[1]).completedAt;
    }
  }
}

/** The same measurement against a raw node:http SSE push: what loopback and this machine allow at best. */
async function rawPushes(url, count, concurrency) {
  const delays = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      delays.push(await rawPush(url));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return delays;
}

/**
 * Completion-to-observation latency over HTTP: `subscriptions/listen` notifications vs polling at the server's
 * pollIntervalMs (100 ms, the client's default floor). Each mode runs `reps` times; rows show the per-run p99.
 */
export async function latencyCase(ctx) {
  const count = ctx.quick ? 20 : 100;
  // Few at a time: the latency of a lightly loaded client and server; the 1,000-in-flight row below loads both.
  const concurrency = Number(process.env.BENCH_LATENCY_CONCURRENCY ?? 4);
  // Each repetition takes ~5 s here; 3 are enough for a median with a spread.
  const reps = Math.min(ctx.reps, 3);
  const server = await startServer('oursHttp', {
    env: { BENCH_POLL_MS: '100', BENCH_TIMING: '1' },
    execArgv: ctx.oursExecArgv,
  });
  const rows = [];
  try {
    for (const mode of ['notifications', 'polling']) {
      const client = new McpClient({
        transport: new HttpClientTransport({ url: server.info.url }),
        clientInfo: { name: 'mcp-tasks-bench', version: '0.0.0' },
        tasks: { listen: mode === 'notifications' },
      });
      try {
        await observeCompletions(client, concurrency, concurrency); // warm-up
        const p99s = [];
        const p50s = [];
        for (let rep = 0; rep < reps; rep++) {
          const delays = await observeCompletions(client, count, concurrency);
          p99s.push(percentile(delays, 99));
          p50s.push(percentile(delays, 50));
        }
        rows.push({
          case: 'latency',
          title: 'completion → observation (HTTP)',
          variant: mode === 'notifications' ? 'listen notifications, p99 ms' : 'polling (100 ms), p99 ms',
          format: 'ms',
          ours: summarize(p99s),
          goal: mode === 'notifications' ? { on: 'ours', max: 5, text: 'p99 < 5 ms' } : undefined,
          note: `p50 ${summarize(p50s).median.toFixed(2)} ms; ${count} tasks × ${reps}, ${concurrency} at a time`,
        });
        if (mode === 'notifications') {
          // The server's share: tool completion → notification handed to the transport (the rest is the transport,
          // loopback and the client runtime).
          const served = (await server.stats()).latency?.notify;
          if (served !== undefined) {
            rows.at(-1).note +=
              `; server's share (completion → notify) p50 ${served.p50.toFixed(2)} ms, p99 ${served.p99.toFixed(2)} ms`;
          }
        }
        ctx.progress(rows.at(-1));
      } finally {
        await client.close();
      }
    }
    const raw = await startServer('rawSsePush');
    try {
      await rawPushes(raw.info.url, concurrency, concurrency); // warm-up
      const p99s = [];
      const p50s = [];
      for (let rep = 0; rep < reps; rep++) {
        const delays = await rawPushes(raw.info.url, count, concurrency);
        p99s.push(percentile(delays, 99));
        p50s.push(percentile(delays, 50));
      }
      rows.splice(1, 0, {
        case: 'latency',
        title: 'completion → observation (HTTP)',
        variant: 'baseline: raw node:http SSE push, p99 ms',
        format: 'ms',
        ours: summarize(p99s),
        note: `p50 ${summarize(p50s).median.toFixed(2)} ms; no runtime: the floor this machine allows`,
      });
      ctx.progress(rows[1]);
    } finally {
      await raw.stop();
    }
    for (const overNode of [true, false]) {
      rows.push(await latencyInFlightRow(ctx, { overNode }));
      ctx.progress(rows.at(-1));
    }
    return rows;
  } finally {
    await server.stop();
  }
}
