/**
 * One call on the board. Built once; every later update only changes text and attributes that differ, inside a
 * box of fixed line heights (`contain: layout`), so streaming updates never move the rest of the board. The end
 * of a call keeps that height too: its status line shows a one-line preview of the result or error, and the full
 * view opens only when the person asks ("Show result"), so 200 cards finishing never push each other around.
 */
import { taskExecutionOf } from '@mcp-tasks/client';
import type { DetailedTask, Task } from '@mcp-tasks/protocol';
import { h, setAttr, setText, uid } from './dom.js';
import { errorPreview, errorView, resultPreview, resultView } from './resultView.js';
import { StepTimeline } from './stepTimeline.js';

/** Where a card is in its life: a task status, or one of the console's own states. */
export type CardStatus =
  | Task['status']
  | 'calling'
  /** A plain call answered without a task. */
  | 'direct'
  /** The call failed before a task existed, or the drive ended on an error that is not a task outcome. */
  | 'error'
  /** The connection dropped; the task will be picked up again when the server is back. */
  | 'disconnected'
  /** The server no longer knows the task (expired, or the server lost its state). */
  | 'lost';

const TERMINAL: ReadonlySet<CardStatus> = new Set(['completed', 'failed', 'cancelled', 'direct', 'error', 'lost']);

/** The fraction done named in a status message like "hashing: 12/64 MiB", if any. */
export function progressOf(message: string | undefined): number | undefined {
  const match = /(\d[\d,]*)\s*\/\s*(\d[\d,]*)/.exec(message ?? '');
  if (match === null) return undefined;
  const done = Number(match[1]?.replaceAll(',', ''));
  const total = Number(match[2]?.replaceAll(',', ''));
  return total > 0 && done <= total ? done / total : undefined;
}

function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** Numbers the cards of this page, so each keeps one stable `data-card` handle (before it has a task id, too). */
let cards = 0;

/** A card on the board. */
export class TaskCard {
  readonly element: HTMLLIElement;
  /** Where input forms for this call appear. */
  readonly inputs: HTMLElement;
  readonly #status: HTMLElement;
  readonly #taskId: HTMLElement;
  readonly #message: HTMLElement;
  readonly #progress: HTMLProgressElement;
  readonly #elapsed: HTMLElement;
  readonly #ttl: HTMLElement;
  readonly #outcome: HTMLElement;
  readonly #toggle: HTMLButtonElement;
  readonly #cancel: HTMLButtonElement;
  readonly #steps = new StepTimeline();
  #state: CardStatus = 'calling';
  #startedAt: number;
  #ttlMs: number | null | undefined;
  #endedAt: number | undefined;

  constructor(toolName: string, onCancel: () => void, startedAt = Date.now()) {
    this.#startedAt = startedAt;
    this.#status = h('span', { class: 'status', 'data-testid': 'status' }, 'calling');
    this.#taskId = h('code', { class: 'task-id', 'data-testid': 'task-id' }, '');
    this.#message = h('p', { class: 'message', 'data-testid': 'message' }, '\u00a0');
    this.#progress = h('progress', { max: 1, 'aria-label': `${toolName} progress` });
    this.#elapsed = h('span', { class: 'elapsed' }, '0 s');
    this.#ttl = h('span', { class: 'ttl' }, '');
    this.inputs = h('div', { class: 'inputs' });
    const outcomeId = uid('outcome');
    this.#outcome = h('div', { class: 'outcome', id: outcomeId, hidden: true });
    this.#toggle = h(
      'button',
      { type: 'button', class: 'toggle-outcome', 'aria-expanded': 'false', 'aria-controls': outcomeId, hidden: true },
      'Show result',
    );
    this.#toggle.addEventListener('click', () => this.#showOutcome(this.#outcome.hidden));
    this.#cancel = h('button', { type: 'button', class: 'cancel', 'aria-label': `Cancel ${toolName}` }, 'Cancel');
    this.#cancel.addEventListener('click', () => {
      this.#cancel.disabled = true;
      setText(this.#cancel, 'Cancelling…');
      onCancel();
    });
    this.element = h(
      'li',
      { class: 'card', 'data-status': 'calling', 'data-tool': toolName, 'data-card': ++cards },
      h('div', { class: 'card-head' }, h('span', { class: 'tool' }, toolName), this.#taskId, this.#status),
      this.#message,
      this.#progress,
      this.#steps.element,
      h('p', { class: 'meta' }, this.#elapsed, this.#ttl, this.#cancel, this.#toggle),
      this.inputs,
      this.#outcome,
    );
  }

  get status(): CardStatus {
    return this.#state;
  }

  get done(): boolean {
    return TERMINAL.has(this.#state);
  }

  /** Shows a task state (the `CreateTaskResult` seed, a poll, or a notification). */
  showTask(task: Task | DetailedTask): void {
    setText(this.#taskId, task.taskId);
    setAttr(this.element, 'data-task-id', task.taskId);
    const created = Date.parse(task.createdAt);
    if (!Number.isNaN(created)) this.#startedAt = created;
    this.#ttlMs = task.ttlMs;
    this.#setStatus(task.status);
    this.tick(Date.now());
    // Once the result or error is shown, its preview keeps the status line.
    if (this.#outcome.childElementCount === 0) setText(this.#message, task.statusMessage ?? '\u00a0');
    this.setProgress(task.status === 'completed' ? 1 : progressOf(task.statusMessage));
    this.#steps.show(taskExecutionOf(task));
    if (task.status !== 'input_required') this.inputs.replaceChildren();
    if (task.status === 'completed' && 'result' in task)
      this.showResult(task.result as Record<string, unknown>, 'completed');
    if ('error' in task && task.status === 'failed') this.showError(task.error as never, 'failed');
  }

  /** Sets the progress bar (undefined: indeterminate, except on a finished card, which never animates). */
  setProgress(fraction: number | undefined): void {
    if (fraction === undefined && this.done) {
      if (this.#progress.position < 0) this.#progress.value = 0;
    } else if (fraction === undefined) this.#progress.removeAttribute('value');
    else if (this.#progress.value !== fraction) this.#progress.value = fraction;
  }

  /** Shows the message of a plain call's progress notification. */
  showMessage(message: string): void {
    setText(this.#message, message);
  }

  /** Shows a call's result: a preview on the status line, the full view behind "Show result". Once per card. */
  showResult(result: Readonly<Record<string, unknown>>, status: 'completed' | 'direct'): void {
    this.#setStatus(status);
    if (this.#outcome.childElementCount > 0) return;
    this.#outcome.append(resultView(result));
    this.#ended(resultPreview(result), result.isError === true ? 'error' : 'result', 'result');
  }

  /** Shows a JSON-RPC error: a preview on the status line, the full view behind "Show error". */
  showError(error: { code: number; message: string; data?: unknown }, status: CardStatus): void {
    this.#setStatus(status);
    this.#outcome.replaceChildren(errorView(error));
    this.#ended(errorPreview(error), 'error', 'error');
  }

  #ended(preview: string, kind: 'result' | 'error', noun: 'result' | 'error'): void {
    setText(this.#message, preview);
    setAttr(this.element, 'data-outcome', kind);
    this.#toggle.dataset.noun = noun;
    this.#toggle.hidden = false;
    this.#showOutcome(!this.#outcome.hidden);
  }

  /** Opens or closes the full result (the person's choice; nothing opens it on its own). */
  #showOutcome(open: boolean): void {
    this.#outcome.hidden = !open;
    setAttr(this.#toggle, 'aria-expanded', String(open));
    setText(this.#toggle, `${open ? 'Hide' : 'Show'} ${this.#toggle.dataset.noun ?? 'result'}`);
  }

  /** A state of the console's own (disconnected, lost, error) with a one-line explanation. */
  showNote(status: CardStatus, note: string): void {
    this.#setStatus(status);
    setText(this.#message, note);
  }

  /** Updates the elapsed time (and remaining TTL) from `now`; called by the board's one shared timer. */
  tick(now: number): void {
    const end = this.#endedAt ?? now;
    setText(this.#elapsed, duration(end - this.#startedAt));
    if (this.#ttlMs === undefined) return;
    setText(
      this.#ttl,
      this.#ttlMs === null ? 'TTL unlimited' : `expires in ${duration(this.#startedAt + this.#ttlMs - now)}`,
    );
  }

  #setStatus(status: CardStatus): void {
    this.#state = status;
    setText(this.#status, status.replace('_', ' '));
    setAttr(this.element, 'data-status', status);
    if (TERMINAL.has(status)) {
      // A finished card shows where it stopped: an indeterminate (animated) bar would say it is still going.
      if (this.#progress.position < 0) this.#progress.value = 0;
      this.#endedAt ??= Date.now();
      this.#cancel.hidden = true;
      this.tick(Date.now());
    } else {
      this.#endedAt = undefined;
      this.#cancel.hidden = false;
    }
  }
}
