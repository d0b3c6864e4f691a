/** Called once when a call is aborted, with the abort's reason. */
export type AbortListener = (reason: unknown) => void;

/**
 * What a handler context reads its cancellation from: a signal, and listeners that need no signal. A synchronous
 * call's is its request's context; a task's is its call's {@link CallAbort}.
 */
export interface AbortSource {
  readonly signal: AbortSignal;
  /** See {@link CallAbort.onAbort}; sources without it are listened to through their signal. */
  onAbort?(listener: AbortListener): () => void;
}

/**
 * The abort of one task call, made of plain fields until something asks for an `AbortSignal`: in Node 20 one
 * `AbortSignal` costs about 0.8 KB of heap (an `EventTarget` with two maps and a hidden class of its own), a
 * kilobyte with one listener, which 100,000 waiting tasks should not pay unless their tools read `ctx.signal`.
 * Aborting is idempotent: the first reason wins. Listeners run synchronously, in the order added, after the
 * signal (if made) fired its own.
 */
export class CallAbort implements AbortSource {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  /** One listener as is, or several in order: most calls have none or one. */
  #listeners: AbortListener | AbortListener[] | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  /** The reason of the abort, or undefined while not aborted. */
  get reason(): unknown {
    return this.#reason;
  }

  /** The call's `AbortSignal`, made on first read (already aborted when the call was). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * Calls `listener` once with the reason when the call is aborted, or at once (synchronously) when it already is.
   * Returns a function removing it (idempotent). A listener that throws does not keep the others from running; its
   * error is rethrown asynchronously, as an `AbortSignal` listener's would be reported.
   */
  onAbort(listener: AbortListener): () => void {
    if (this.#aborted) {
      listener(this.#reason);
      return noop;
    }
    const current = this.#listeners;
    if (current === undefined) this.#listeners = listener;
    else if (Array.isArray(current)) current.push(listener);
    else this.#listeners = [current, listener];
    return () => this.#remove(listener);
  }

  /** Aborts the call with `reason` (a no-op once aborted). */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners === undefined) return;
    for (const listener of Array.isArray(listeners) ? listeners : [listeners]) {
      try {
        listener(reason);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  #remove(listener: AbortListener): void {
    const current = this.#listeners;
    if (current === listener) this.#listeners = undefined;
    else if (Array.isArray(current)) {
      const index = current.indexOf(listener);
      if (index >= 0) current.splice(index, 1);
    }
  }
}

const noop = (): void => undefined;

/**
 * Listens to `source`'s abort: through {@link CallAbort.onAbort} when it has one (no signal is made), else through
 * its signal. Returns the function removing the listener.
 */
export function listenToAbort(source: AbortSource, listener: AbortListener): () => void {
  if (source.onAbort !== undefined) return source.onAbort(listener);
  const { signal } = source;
  if (signal.aborted) {
    listener(signal.reason);
    return noop;
  }
  const onAbort = () => listener(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}
