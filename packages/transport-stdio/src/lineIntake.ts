import type { Readable, Writable } from 'node:stream';

/**
 * Requests that may be running before further lines are taken at most one per turn of the event loop. Below it a
 * burst of lines from one read is taken at once (the common case, no added latency); above it, answers of the
 * requests already running get a turn to reach stdout, and be counted against the high-water mark, before more
 * work is taken.
 */
export const EAGER_IN_FLIGHT = 16;

/** What {@link LineIntake} needs from the transport around it. */
export interface LineIntakeOptions {
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** Output bytes above which no line is taken (see `StdioServerTransportOptions.outputHighWaterMark`). */
  readonly highWaterMark: number;
  /** Output queued by the transport but not yet handed to stdout (flushed on the next tick). */
  readonly queuedOutput: () => number;
  /** Requests running now. */
  readonly inFlight: () => number;
  /** Hands one line to the runtime. */
  readonly take: (line: string) => void;
}

/**
 * Decides when each inbound line is handed to the runtime, so that a client that stops reading stdout holds the
 * server at bounded memory: no line is taken while stdout holds more than the high-water mark (the lines wait, in
 * order, and stdin is paused so that at most one more read is buffered), and once {@link EAGER_IN_FLIGHT}
 * requests are running, lines are taken one per event-loop turn. When stdout drains, the waiting lines are taken
 * again under the same rules and reading resumes once none wait.
 */
export class LineIntake {
  readonly #options: LineIntakeOptions;
  readonly #waiting: string[] = [];
  #inputPaused = false;
  #awaitingDrain = false;
  /** Set once a line was taken this turn with {@link EAGER_IN_FLIGHT} requests running; cleared by the next turn. */
  #turnUsed = false;
  #nextTurn: NodeJS.Immediate | undefined;
  #stopped = false;

  constructor(options: LineIntakeOptions) {
    this.#options = options;
  }

  /** Receives one complete line from stdin: taken now, or queued behind the lines already waiting. */
  push(line: string): void {
    if (this.#waiting.length === 0 && this.#mayTake()) this.#take(line);
    else {
      this.#waiting.push(line);
      this.#pump();
    }
  }

  /** Called after the transport handed output to stdout: stops reading when stdout is over the mark. */
  afterWrite(): void {
    if (this.#overMark()) this.#pauseInput();
    else this.#pump();
  }

  /** Drops the waiting lines and stops scheduling; the transport is closing. */
  stop(): void {
    this.#stopped = true;
    this.#waiting.length = 0;
    clearImmediate(this.#nextTurn);
    this.#options.stdout.off('drain', this.#onDrain);
  }

  #take(line: string): void {
    this.#options.take(line);
    if (!this.#turnUsed && this.#options.inFlight() >= EAGER_IN_FLIGHT) {
      this.#turnUsed = true;
      this.#nextTurn = setImmediate(this.#onTurn);
    }
  }

  /** True when a line may be taken now; otherwise arranges to be asked again (drain, next turn or next flush). */
  #mayTake(): boolean {
    if (this.#stopped) return false;
    if (this.#overMark()) {
      this.#pauseInput();
      return false;
    }
    return !(this.#turnUsed && this.#options.inFlight() >= EAGER_IN_FLIGHT);
  }

  /**
   * Over the mark with a way to learn when it is not: output still queued (its flush calls {@link afterWrite}) or
   * stdout waiting to drain. A stdout whose own buffer limit is above the mark never asks for a drain, so it is
   * not held back here.
   */
  #overMark(): boolean {
    const { stdout, queuedOutput, highWaterMark } = this.#options;
    if (stdout.writableLength + queuedOutput() < highWaterMark) return false;
    if (queuedOutput() > 0) return true;
    if (!stdout.writableNeedDrain) return false;
    if (!this.#awaitingDrain) {
      this.#awaitingDrain = true;
      stdout.once('drain', this.#onDrain);
    }
    return true;
  }

  #pump(): void {
    while (this.#waiting.length > 0 && this.#mayTake()) this.#take(this.#waiting.shift() as string);
    if (this.#waiting.length > 0) this.#pauseInput();
    else if (!this.#stopped && !this.#awaitingDrain && !this.#overMark()) this.#resumeInput();
  }

  #pauseInput(): void {
    if (this.#inputPaused) return;
    this.#inputPaused = true;
    this.#options.stdin.pause();
  }

  #resumeInput(): void {
    if (!this.#inputPaused) return;
    this.#inputPaused = false;
    this.#options.stdin.resume();
  }

  readonly #onDrain = (): void => {
    this.#awaitingDrain = false;
    if (!this.#stopped) this.#pump();
  };

  readonly #onTurn = (): void => {
    this.#nextTurn = undefined;
    this.#turnUsed = false;
    if (!this.#stopped) this.#pump();
  };
}
