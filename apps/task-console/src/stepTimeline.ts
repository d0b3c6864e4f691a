/**
 * A durable task's step timeline on its card: one line of chips, one per completed step in order, a chip marked
 * with the run that completed it when that was a re-run, and the run count and a "parked" mark when they matter.
 * Read from the `_meta["io.mcp-tasks/execution"]` the mcp-tasks server adds to a durable task's states; hidden for
 * any other task. One line whatever the count (it scrolls sideways), so cards keep their height.
 */
import type { TaskExecutionView } from '@mcp-tasks/client';
import { h, setAttr, setText } from './dom.js';

/** The timeline element of one card. */
export class StepTimeline {
  readonly element: HTMLElement;
  readonly #list: HTMLOListElement;
  readonly #runs: HTMLElement;
  #shown = 0;

  constructor() {
    this.#list = h('ol', { class: 'step-chips', 'aria-label': 'Completed steps' });
    this.#runs = h('span', { class: 'runs' }, '');
    this.element = h('div', { class: 'steps', 'data-testid': 'steps', hidden: true }, this.#runs, this.#list);
  }

  /** Shows `view` (chips are only ever appended: steps complete in order and are never undone). */
  show(view: TaskExecutionView | undefined): void {
    if (view === undefined) return;
    this.element.hidden = false;
    const parked = view.state === 'parked' ? ' · parked' : '';
    setText(this.#runs, view.attempt > 1 ? `run ${view.attempt}${parked}` : parked.replace(' · ', ''));
    setAttr(this.element, 'data-attempt', String(view.attempt));
    for (const step of view.steps.slice(this.#shown)) {
      const rerun = step.attempt > 1;
      const chip = h(
        'li',
        { class: rerun ? 'chip rerun' : 'chip', title: `${step.name}: completed by run ${step.attempt}` },
        rerun ? `${step.name} ↻${step.attempt}` : step.name,
      );
      this.#list.append(chip);
    }
    this.#shown = Math.max(this.#shown, view.steps.length);
    // The newest chip in view, without scrolling anything but the line itself.
    this.#list.scrollLeft = this.#list.scrollWidth;
  }
}
