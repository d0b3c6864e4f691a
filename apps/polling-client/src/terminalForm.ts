/**
 * Interactive elicitation with `@clack/prompts`: accept / decline / cancel as a choice list, then one prompt per
 * form field (text with inline validation, numbers with their range, yes/no, single and multiple choice). The
 * schema → field mapping and the checks are the client's shared `formFields`; drawing prompts and reading keys is clack's.
 * Forms are asked one at a time even when several arrive together.
 */
import { emitKeypressEvents } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { isCancel, log, select } from '@clack/prompts';
import { formFields, type JsonValue } from '@mcp-tasks/client';
import type { ElicitRequest, ElicitResult } from '@mcp-tasks/protocol';
import { askField, type PromptIo } from './formPrompts.js';

/** Hooks around a prompt, so a live status line can step aside. */
export interface PromptHooks {
  readonly before?: () => void;
  readonly after?: () => void;
  /**
   * Ctrl-C at a prompt (the terminal is in raw mode, so no signal is raised by itself). Default: raise SIGINT, so
   * Ctrl-C still cancels the task as it does outside a prompt. Escape only cancels the form.
   */
  readonly interrupt?: () => void;
}

/** Asks elicitation forms on a terminal (or any stream of key presses). */
export class TerminalForm {
  readonly #input: Readable;
  readonly #output: Writable;
  readonly #hooks: PromptHooks;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(input: Readable, output: Writable, hooks: PromptHooks = {}) {
    this.#input = input;
    this.#output = output;
    this.#hooks = hooks;
  }

  /**
   * Asks one form. Escape answers `cancel`; it rejects (the client then answers `cancel`) if the input ends,
   * Ctrl-C is pressed or `signal` aborts.
   */
  ask(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    const run = this.#queue.then(() => this.#ask(params, signal));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #ask(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    signal.throwIfAborted();
    this.#hooks.before?.();
    const io = promptIo(this.#input, this.#output, signal, this.#hooks.interrupt);
    try {
      if (params.mode === 'url') {
        log.info(`${params.message}\nThe server asks you to open: ${params.url}`, io.common);
        return { action: (await chooseAction('Did you complete it there?', 'accept', io)) ?? 'cancel' };
      }
      const chosen = (await chooseAction(params.message, 'accept', io)) ?? 'cancel';
      if (chosen !== 'accept') return { action: chosen };
      const content: Record<string, JsonValue> = {};
      for (const field of formFields(params.requestedSchema)) {
        const value = await askField(field, io);
        if (value === 'cancelled') return { action: 'cancel' };
        if (value !== undefined) content[field.name] = value;
      }
      // Each value passed its field's check, and a requested schema has only primitive and string-list fields.
      return { action: 'accept', content: content as ElicitResult['content'] };
    } finally {
      io.close();
      this.#hooks.after?.();
    }
  }
}

/** Accept / decline / cancel as a list: only a valid answer can be picked, and the keys are shown under it. */
async function chooseAction(
  message: string,
  initial: ElicitResult['action'],
  io: PromptIo,
): Promise<ElicitResult['action'] | undefined> {
  const picked = await select<ElicitResult['action']>({
    ...io.common,
    message,
    initialValue: initial,
    options: [
      { value: 'accept', label: 'Accept', hint: 'fill in the form' },
      { value: 'decline', label: 'Decline', hint: 'say no' },
      { value: 'cancel', label: 'Cancel', hint: 'dismiss without answering' },
    ],
  });
  return io.settled(picked);
}

/**
 * The streams and stop signal every prompt of one form shares. Ends the prompt in progress when the input ends,
 * Ctrl-C is pressed or `signal` aborts; `settled` then throws that reason instead of reading it as Escape.
 */
function promptIo(input: Readable, output: Writable, signal: AbortSignal, interrupt?: () => void): PromptIo {
  const stop = new AbortController();
  const end = (reason: Error) => () => stop.abort(reason);
  const onEnd = end(new Error('input closed'));
  const onAbort = () => stop.abort(signal.reason);
  const onKey = (_: string, key: { ctrl?: boolean; name?: string } | undefined) => {
    if (key?.ctrl !== true || key.name !== 'c') return;
    stop.abort(new Error('interrupted'));
    (interrupt ?? (() => process.kill(process.pid, 'SIGINT')))();
  };
  emitKeypressEvents(input);
  input.on('keypress', onKey);
  input.once('end', onEnd);
  input.once('close', onEnd);
  signal.addEventListener('abort', onAbort, { once: true });
  if (input.readableEnded) onEnd();
  return {
    common: { input, output, signal: stop.signal },
    settled<T>(value: T): Exclude<T, symbol> | undefined {
      if (!isCancel(value)) return value as Exclude<T, symbol>;
      if (stop.signal.aborted) throw stop.signal.reason;
      return undefined;
    },
    close() {
      input.off('keypress', onKey);
      input.off('end', onEnd);
      input.off('close', onEnd);
      signal.removeEventListener('abort', onAbort);
    },
  };
}
