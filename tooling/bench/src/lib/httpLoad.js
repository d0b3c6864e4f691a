import autocannon from 'autocannon';

/**
 * Drives `url` with autocannon for `seconds` (or for `amount` requests) at `connections`, POSTing the same JSON-RPC
 * `message` each time. Returns requests/s, latency percentiles (ms) and error counts; throws when any response was
 * not 2xx (a benchmark of error pages would be worthless).
 */
export async function httpLoad({ url, message, headers, connections, seconds, amount }) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers,
    body: JSON.stringify(message),
    connections,
    // A fixed number of requests (`amount`) instead of a duration, when given.
    ...(amount === undefined ? { duration: seconds } : { amount }),
    pipelining: 1,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return {
    rps: result.requests.total / result.duration,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/** One POST, answered as JSON; resolves with the parsed body (for correctness checks before measuring). */
export async function postJson(url, message, headers) {
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${text}`);
  return JSON.parse(text);
}
