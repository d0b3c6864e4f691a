/**
 * Shows a task's progress. On a terminal: one live line (spinner, status, statusMessage, elapsed time) redrawn in
 * place. Otherwise: one plain line per change of status or statusMessage, so logs and tests can follow along.
 */
import type { Writable } from 'node:stream';
import { taskExecutionOf } from '@mcp-tasks/client';

/** What the reporter needs from an observed task state (a durable task's `_meta` also gives its steps). */
export interface ObservedState {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string | undefined;
  readonly _meta?: unknown;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** Live status output for one call. `pause` before prompting on the same terminal, `resume` after. */
export class StatusReporter {
  readonly #out: Writable;
  readonly #live: boolean;
  readonly #startedAt = Date.now();
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;
  #last: ObservedState | undefined;
  #paused = false;
  /** Steps of a durable task already printed, and the run last seen. */
  #stepsShown = 0;
  #run = 1;

  /** `live` selects the redrawn line; by default it is on when `out` is a TTY. */
  constructor(out: Writable & { isTTY?: boolean }, live = out.isTTY === true) {
    this.#out = out;
    this.#live = live;
  }

  /** Records an observed state: redraws the live line, or prints a line when something changed. */
  update(state: ObservedState): void {
    const previous = this.#last;
    this.#last = state;
    this.#steps(state);
    if (this.#live) {
      this.#timer ??= setInterval(() => this.#draw(), 100);
      this.#draw();
      return;
    }
    if (previous?.status !== state.status || previous?.statusMessage !== state.statusMessage)
      this.line(`[${this.#elapsed()}] ${state.status}${state.statusMessage ? `: ${state.statusMessage}` : ''}`);
  }

  /**
   * Prints what a durable task's execution adds: a line when a re-run starts (after a lost worker, a drain, a retry
   * or a parked question's answer), and one per step completed since the last state, marked when a re-run did it.
   */
  #steps(state: ObservedState): void {
    const execution = taskExecutionOf(state);
    if (execution === undefined) return;
    // In run order: steps of earlier runs not printed yet, then the new run, then its steps.
    for (const step of execution.steps.slice(this.#stepsShown)) {
      if (step.attempt > this.#run) this.#startRun(step.attempt);
      const rerun = step.attempt > 1 ? ` (run ${step.attempt})` : '';
      this.line(`[${this.#elapsed()}] step done: ${step.name}${rerun}`);
    }
    this.#stepsShown = Math.max(this.#stepsShown, execution.steps.length);
    if (execution.attempt > this.#run) this.#startRun(execution.attempt);
  }

  #startRun(run: number): void {
    this.#run = run;
    this.line(`[${this.#elapsed()}] run ${run} of the task's work started (completed steps are replayed)`);
  }

  /** Prints a whole line, above the live line if there is one. */
  line(text: string): void {
    this.#clear();
    this.#out.write(`${text}\n`);
    this.#draw();
  }

  /** Hides the live line (e.g. while prompting). */
  pause(): void {
    this.#clear();
    this.#paused = true;
  }

  /** Shows the live line again. */
  resume(): void {
    this.#paused = false;
    this.#draw();
  }

  /** Stops redrawing and clears the live line. Idempotent. */
  stop(): void {
    this.#clear();
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#last = this.#live ? undefined : this.#last;
  }

  #draw(): void {
    const state = this.#last;
    if (!this.#live || this.#paused || state === undefined || this.#timer === undefined) return;
    const spinner = SPINNER[this.#frame++ % SPINNER.length];
    const message = state.statusMessage ? ` · ${state.statusMessage}` : '';
    const columns = (this.#out as { columns?: number }).columns || 100;
    const text = `${spinner} ${state.status}${message} · ${this.#elapsed()}`;
    this.#out.write(`\r\x1b[2K${text.slice(0, Math.max(10, columns - 1))}`);
  }

  #clear(): void {
    if (this.#live && this.#timer !== undefined && !this.#paused) this.#out.write('\r\x1b[2K');
  }

  #elapsed(): string {
    return `${((Date.now() - this.#startedAt) / 1000).toFixed(1)}s`;
  }
}
