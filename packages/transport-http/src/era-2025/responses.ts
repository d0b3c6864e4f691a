/** True for a successful response whose body is an SSE stream. */
export function isEventStream(res: Response): res is Response & { body: ReadableStream<Uint8Array> } {
  return res.ok && res.body !== null && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
}

/** Drops a response's body unread (a connection is freed only once its body is consumed or cancelled). */
export async function discard(res: Response): Promise<void> {
  await res.body?.cancel().catch(() => {});
}
