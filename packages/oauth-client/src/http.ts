/** The `fetch` the wrapper and its discovery use; the platform's by default. */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** GETs JSON with a deadline; `undefined` for a 4xx (the document is not there), an error for anything else. */
export async function getJson(
  fetchFn: FetchLike,
  url: URL,
  timeoutMs: number,
): Promise<{ response: Response; body: unknown } | undefined> {
  const response = await fetchFn(url, {
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (response.status >= 400 && response.status < 500) return undefined;
  if (!response.ok) throw new Error(`GET ${url.href} answered HTTP ${response.status}`);
  const text = await response.text();
  try {
    return { response, body: JSON.parse(text) };
  } catch {
    throw new Error(`GET ${url.href} did not return JSON`);
  }
}

/** True when `url` uses plain http to a loopback host (allowed for development only). */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}
