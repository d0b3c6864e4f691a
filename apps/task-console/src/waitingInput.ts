/**
 * The board heading's "N calls wait for your answer" button. An input request shows on the card of the call that
 * asked, which may be far down a long board (the MCP Inspector opens a dialog instead, which a person cannot miss);
 * the heading counts the open requests, and the button brings the oldest one into view and focuses its first field.
 */
import { setText } from './dom.js';

export class WaitingInput {
  readonly #button: HTMLButtonElement;
  #open = 0;

  /** `button` is shown only while a request is open; `board` holds the cards (newest first). */
  constructor(button: HTMLButtonElement, board: HTMLElement) {
    this.#button = button;
    button.hidden = true;
    button.addEventListener('click', () => {
      // Cards are prepended, so the last open form in the board belongs to the oldest call.
      const forms = board.querySelectorAll<HTMLFormElement>('form.input-form');
      const oldest = forms.item(forms.length - 1);
      if (oldest === null) return;
      oldest.scrollIntoView({ block: 'center' });
      oldest.querySelector<HTMLElement>('input, textarea, select, button')?.focus({ preventScroll: true });
    });
  }

  /** Counts `answer`'s request as open until it settles (answered, or withdrawn when its call ends). */
  track<T>(answer: Promise<T>): Promise<T> {
    this.#update(1);
    return answer.finally(() => this.#update(-1));
  }

  #update(change: number): void {
    this.#open += change;
    this.#button.hidden = this.#open === 0;
    setText(this.#button, `${this.#open} ${this.#open === 1 ? 'call waits' : 'calls wait'} for your answer`);
  }
}
