/**
 * The parent side of every benchmark server: announce readiness over IPC, answer resource probes (CPU time and
 * memory, so the harness can report server CPU per request and RSS), and exit when asked or orphaned.
 */
export function ready(info = {}) {
  process.on('message', (message) => {
    if (message?.type === 'stats') {
      if (message.gc && typeof globalThis.gc === 'function') globalThis.gc();
      process.send({
        type: 'stats',
        cpu: process.cpuUsage(),
        memory: process.memoryUsage(),
        latency: latencySummary(),
      });
    } else if (message?.type === 'stop') {
      process.exit(0);
    }
  });
  // Never outlive the harness.
  process.on('disconnect', () => process.exit(0));
  process.send({ type: 'ready', ...info });
}

/** The JSON `result` the echo baselines answer with, so their responses match ours byte for byte in size. */
export function echoTemplate() {
  const raw = process.env.BENCH_ECHO_RESULT;
  return raw === undefined ? { ok: true } : JSON.parse(raw);
}

/** The port to listen on (0 = any). */
export function port() {
  return Number(process.env.BENCH_PORT ?? 0);
}

const latencies = new Map();

/** Records how long the server took to answer one request of `method` (ms); reported with the stats. */
export function recordLatency(method, ms) {
  let list = latencies.get(method);
  if (list === undefined) {
    list = [];
    latencies.set(method, list);
  }
  list.push(ms);
}

function latencySummary() {
  const summary = {};
  for (const [method, list] of latencies) {
    const sorted = Float64Array.from(list).sort();
    const at = (p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
    summary[method] = { count: sorted.length, p50: at(50), p99: at(99), max: sorted[sorted.length - 1] };
  }
  return summary;
}
