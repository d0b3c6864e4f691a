import {
  isRecord,
  TransportError,
  type TransportNotification,
  type TransportRequest,
  type TransportRequestId,
  type TransportResponse,
} from '@mcp-tasks/protocol';
import type { ClientPeerDispatch } from '@mcp-tasks/transport-kit';
import { isResponseTo } from '../readJsonReply.js';
import { readSseFrames } from '../readSseEvents.js';

/** The request a stream answers (a POST's stream and its resumptions); the GET stream answers none. */
export interface StreamScope {
  readonly id: TransportRequestId;
  readonly progressToken: unknown;
  readonly onNotification: ((notification: TransportNotification) => void) | undefined;
  readonly signal: AbortSignal;
}

/** Where a stream got to: what a reconnection sends back and waits. */
export interface StreamCursor {
  lastEventId?: string;
  retry?: number;
  frames: number;
}

/**
 * Reads the SSE streams of a 2025-era session and sends each message where it belongs: the response a stream
 * answers back to its reader, a response replayed on another stream to the request waiting for it, server requests
 * to the {@link ClientPeerDispatch}, notifications to the request they concern or to the peer handler.
 */
export class SseRouter {
  readonly #peer: ClientPeerDispatch;
  readonly #onToolsChanged: () => void;
  readonly #awaiting = new Map<TransportRequestId, (response: TransportResponse) => void>();

  constructor(peer: ClientPeerDispatch, onToolsChanged: () => void) {
    this.#peer = peer;
    this.#onToolsChanged = onToolsChanged;
  }

  /** Resolves with the response to `id` if it arrives on any stream before `release()` is called. */
  awaitResponse(id: TransportRequestId): { readonly response: Promise<TransportResponse>; release(): void } {
    let deliver: (response: TransportResponse) => void = () => {};
    const response = new Promise<TransportResponse>((resolve) => {
      deliver = resolve;
    });
    this.#awaiting.set(id, deliver);
    return {
      response,
      release: () => {
        if (this.#awaiting.get(id) === deliver) this.#awaiting.delete(id);
      },
    };
  }

  /** Reads one SSE stream, routing what is not `scope`'s response; resolves with that response or at the end. */
  async consume(
    body: ReadableStream<Uint8Array>,
    scope: StreamScope | undefined,
    cursor: StreamCursor,
  ): Promise<TransportResponse | undefined> {
    for await (const frame of readSseFrames(body)) {
      cursor.frames++;
      if (frame.id !== undefined) cursor.lastEventId = frame.id;
      if (frame.retry !== undefined) cursor.retry = frame.retry;
      // A priming event (an id, no message) only sets where to resume.
      if (frame.data === undefined || frame.data.trim() === '') continue;
      let message: unknown;
      try {
        message = JSON.parse(frame.data);
      } catch (cause) {
        throw new TransportError('malformed_frame', 'SSE event is not valid JSON', { cause });
      }
      if (scope !== undefined && isResponseTo(message, scope.id)) return message;
      this.#route(message, scope);
    }
    return undefined;
  }

  #route(message: unknown, scope: StreamScope | undefined): void {
    if (!isRecord(message)) return;
    const id = message.id;
    const hasId = typeof id === 'string' || typeof id === 'number';
    if (typeof message.method !== 'string') {
      // A response on another stream: a resumed request whose answer the server replayed here.
      if (hasId && ('result' in message || 'error' in message)) {
        this.#awaiting.get(id)?.(message as unknown as TransportResponse);
      }
      return;
    }
    if (hasId) {
      this.#peer.receiveRequest(message as unknown as TransportRequest);
      return;
    }
    const notification = message as unknown as TransportNotification;
    const params = notification.params;
    if (notification.method === 'notifications/tools/list_changed') this.#onToolsChanged();
    if (this.#peer.takeCancellation(notification)) return;
    const own =
      scope !== undefined &&
      notification.method === 'notifications/progress' &&
      scope.progressToken !== undefined &&
      params?.progressToken === scope.progressToken;
    const handler = this.#peer.handler;
    if (!own && handler !== undefined) handler.onNotification(notification);
    else if (scope !== undefined && !scope.signal.aborted) scope.onNotification?.(notification);
  }
}
