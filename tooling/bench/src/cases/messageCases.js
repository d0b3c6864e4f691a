import { closedLoop, requestTemplate } from '../clients/closedLoop.js';
import { stdioChannel } from '../clients/stdioChannel.js';
import { openWsChannels } from '../clients/wsChannels.js';
import { startServer } from '../lib/child.js';
import { tasksGet } from '../lib/messages.js';
import { pairedRuns } from '../lib/pairedRuns.js';

/** Sends one request over `channel` and resolves with the parsed reply. */
function roundTrip(channel, text) {
  return new Promise((resolve) => {
    channel.onMessage((reply) => resolve(JSON.parse(reply)));
    channel.send(text);
  });
}

function expectWorkingTask(reply) {
  if (reply.result?.status !== 'working')
    throw new Error(`tasks/get did not answer a working task: ${JSON.stringify(reply)}`);
}

/**
 * A message-transport comparison (ws, stdio): our server and an echo baseline answering with a result of the same
 * size, each variant driven by the same closed-loop client side by side.
 */
async function messagePair(ctx, spec) {
  const ours = await startServer(spec.ours, { pipe: spec.pipe, execArgv: ctx.oursExecArgv });
  let baseline;
  try {
    const request = requestTemplate(tasksGet(ours.info.taskId));
    const probe = await spec.open(ours, 1);
    const reply = await roundTrip(probe.channels[0], request(0));
    await probe.close();
    expectWorkingTask(reply);
    baseline = await startServer(spec.baseline, {
      pipe: spec.pipe,
      env: { BENCH_ECHO_RESULT: JSON.stringify(reply.result) },
    });
    const servers = { ours, baseline };
    const rows = [];
    for (const variant of spec.variants) {
      const opened = {
        ours: await spec.open(ours, variant.clients),
        baseline: await spec.open(baseline, variant.clients),
      };
      const drive = (side, seconds) =>
        closedLoop({ channels: opened[side].channels, inFlight: variant.inFlight, seconds, requestText: request });
      try {
        const result = await pairedRuns({
          reps: ctx.reps,
          warmUp: async (side) => (await drive(side, ctx.warmSeconds)).rate,
          maxWarmUps: ctx.maxWarmUps,
          measure: async (side) => {
            const before = await servers[side].stats();
            const run = await drive(side, ctx.seconds);
            const after = await servers[side].stats();
            return { rate: run.rate, cpuPerOp: (after.cpuMicros - before.cpuMicros) / run.total };
          },
        });
        rows.push({
          case: spec.id,
          title: spec.title,
          variant: variant.label,
          unit: 'msg/s',
          oursLabel: spec.oursLabel,
          baselineLabel: spec.baselineLabel,
          ...result,
          goal: variant.goal,
        });
        ctx.progress(rows.at(-1));
      } finally {
        await Promise.all([opened.ours.close(), opened.baseline.close()]);
      }
    }
    return rows;
  } finally {
    await Promise.all([ours.stop(), baseline?.stop()]);
  }
}

/** WebSocket tasks/get: our ws transport vs a raw ws echo. */
export function wsTasksGet(ctx) {
  return messagePair(ctx, {
    id: 'ws-tasks-get',
    title: 'WebSocket tasks/get',
    ours: 'oursWs',
    oursLabel: 'WebSocketServerTransport',
    baseline: 'rawWsEcho',
    baselineLabel: 'raw ws echo',
    pipe: false,
    open: (server, clients) => openWsChannels(server.info.url, clients),
    variants: [
      { label: '1 client ping-pong', clients: 1, inFlight: 1 },
      { label: '10 clients ping-pong', clients: 10, inFlight: 1, goal: { min: 0.85, by: 'cpu' } },
      { label: '1 client, 100 pipelined', clients: 1, inFlight: 100 },
    ],
  });
}

/** stdio tasks/get: our stdio transport vs a raw NDJSON echo child. */
export function stdioTasksGet(ctx) {
  return messagePair(ctx, {
    id: 'stdio-tasks-get',
    title: 'stdio tasks/get',
    ours: 'oursStdio',
    oursLabel: 'serveStdio',
    baseline: 'rawStdioEcho',
    baselineLabel: 'raw NDJSON echo child',
    pipe: true,
    open: (server) => {
      const channel = stdioChannel(server.child);
      return { channels: [channel], close: async () => {} };
    },
    variants: [
      { label: '1 in flight', clients: 1, inFlight: 1 },
      { label: '100 in flight', clients: 1, inFlight: 100, goal: { min: 0.9, by: 'cpu' } },
    ],
  });
}
