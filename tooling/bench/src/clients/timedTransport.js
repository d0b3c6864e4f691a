/**
 * Wraps a ClientTransport and records the latency (ms) of every request by method, so the scale case can report
 * the p99 of `tasks/get` as the client runtime experienced it.
 */
export function timedTransport(inner) {
  const latencies = new Map();
  return {
    latencies,
    async request(message, options) {
      const started = performance.now();
      const response = await inner.request(message, options);
      let list = latencies.get(message.method);
      if (list === undefined) {
        list = [];
        latencies.set(message.method, list);
      }
      list.push(performance.now() - started);
      return response;
    },
    notify: (message) => inner.notify(message),
    close: () => inner.close(),
  };
}
