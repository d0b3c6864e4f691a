import { onAbort } from '@mcp-tasks/protocol';

/** The reason of a call not aborted: no reason a caller gives can be it. */
const NOT_ABORTED: unique symbol = Symbol('not aborted');

/** Called once when a call is aborted, with the abort's reason. */
export type AbortListener = (reason: unknown) => void;

/**
 * What a handler context reads its cancellation from: a synchronous call's request context (a signal), or a task
 * call's {@link CallAbort}.
 */
export interface AbortSource {
  readonly signal: AbortSignal;
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
  /** The abort's reason, or {@link NOT_ABORTED}: one field for both (a word less per waiting task). */
  #reason: unknown = NOT_ABORTED;
  /** One listener as is, or several in order: most calls have none or one. */
  #listeners: AbortListener | AbortListener[] | undefined;

  get aborted(): boolean {
    return this.#reason !== NOT_ABORTED;
  }

  /** The reason of the abort, or undefined while not aborted. */
  get reason(): unknown {
    return this.aborted ? this.#reason : undefined;
  }

  /** The call's `AbortSignal`, made on first read (already aborted when the call was). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * Calls `listener` once with the reason when the call is aborted, or at once (synchronously) when it already is.
   * Nothing is allocated for it (no remover is returned): {@link offAbort} removes it early. A listener that throws
   * does not keep the others from running; its error is rethrown asynchronously, as an `AbortSignal` listener's is.
   */
  onAbort(listener: AbortListener): void {
    if (this.aborted) {
      listener(this.#reason);
      return;
    }
    const current = this.#listeners;
    if (current === undefined) this.#listeners = listener;
    else if (Array.isArray(current)) current.push(listener);
    else this.#listeners = [current, listener];
  }

  /** Aborts the call with `reason` (a no-op once aborted). */
  abort(reason: unknown): void {
    if (this.aborted) return;
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

  /**
   * The call made on it ended. A task call's abort is ended by its supervisor (which aborts it), so this is a no-op
   * here; the abort that follows a request's signal stops following it (see {@link callAbortOf}).
   */
  release(): void {}

  /** Removes `listener` (once, if added several times); a no-op when it is not there. */
  offAbort(listener: AbortListener): void {
    const current = this.#listeners;
    if (current === listener) this.#listeners = undefined;
    else if (Array.isArray(current)) {
      const index = current.indexOf(listener);
      if (index >= 0) current.splice(index, 1);
    }
  }
}

/** A {@link CallAbort} that follows a request's signal: the same signal, and listeners that need none. */
class SignalAbort extends CallAbort {
  readonly #source: AbortSource;
  /** Removes this call's listener from the request's signal; undefined once released (or never added). */
  #off: (() => void) | undefined;

  constructor(source: AbortSource) {
    super();
    this.#source = source;
    const { signal } = source;
    if (signal.aborted) this.abort(signal.reason);
    else this.#off = onAbort(signal, () => this.abort(signal.reason));
  }

  override get signal(): AbortSignal {
    return this.#source.signal;
  }

  /** Stops following the request's signal: listeners added to this call are never called after it. Idempotent. */
  override release(): void {
    this.#off?.();
    this.#off = undefined;
  }
}

/**
 * The {@link CallAbort} of `source`: itself, or one following its signal (aborted with it, and handing out that same
 * signal), so every handler context offers the same listeners. Call `release()` on the latter once the call made on
 * the request ended (its handler settled): a signal may outlive its request (a transport may hand every request its
 * connection's signal), and the listeners of a handler that already answered must neither run when it aborts later
 * nor stay reachable from it.
 */
export function callAbortOf(source: AbortSource): CallAbort {
  return source instanceof CallAbort ? source : new SignalAbort(source);
}
