/**
 * Interactive elicitation: asks accept / decline / cancel, then each form field with a typed prompt (defaults,
 * required marks, enum choices by number). Forms are asked one at a time even when several arrive together.
 */
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import type { ElicitRequest, ElicitResult } from '@mcp-tasks/protocol';
import { type FieldValue, type FormField, formFields, parseTyped } from './formFields.js';

/** Hooks around a prompt, so a live status line can step aside. */
export interface PromptHooks {
  readonly before?: () => void;
  readonly after?: () => void;
}

/** Asks elicitation forms on a terminal (or any line-based input). */
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

  /** Asks one form; rejects (the client then answers `cancel`) if the input ends or `signal` aborts. */
  ask(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    const run = this.#queue.then(() => this.#ask(params, signal));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #ask(params: ElicitRequest['params'], signal: AbortSignal): Promise<ElicitResult> {
    signal.throwIfAborted();
    this.#hooks.before?.();
    const rl = createInterface({
      input: this.#input,
      output: this.#output,
      terminal: (this.#output as { isTTY?: boolean }).isTTY,
    });
    // Ctrl-C while a prompt owns the terminal is still Ctrl-C for the whole program.
    rl.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
    const closed = new Promise<never>((_, reject) => rl.once('close', () => reject(new Error('input closed'))));
    closed.catch(() => undefined);
    const question = (text: string) => Promise.race([rl.question(text, { signal }), closed]);
    try {
      this.#output.write(`\n? ${params.message}\n`);
      if (params.mode === 'url') {
        this.#output.write(`  The server asks you to open: ${params.url}\n`);
        const answer = await question('  Did you complete it there? [a]ccept / [d]ecline / [c]ancel: ');
        return { action: action(answer) ?? 'decline' };
      }
      for (;;) {
        const answer = await question('  Answer this form? [a]ccept / [d]ecline / [c]ancel (a): ');
        const chosen = answer.trim() === '' ? 'accept' : action(answer);
        if (chosen === 'accept') break;
        if (chosen !== undefined) return { action: chosen };
        this.#output.write(`  "${answer.trim()}" is not a choice: type a (accept), d (decline) or c (cancel).\n`);
      }
      const content: Record<string, FieldValue> = {};
      for (const field of formFields(params.requestedSchema.properties, params.requestedSchema.required)) {
        const value = await askField(field, question, this.#output);
        if (value !== undefined) content[field.name] = value;
      }
      return { action: 'accept', content };
    } finally {
      rl.close();
      this.#hooks.after?.();
    }
  }
}

async function askField(
  field: FormField,
  question: (text: string) => Promise<string>,
  output: Writable,
): Promise<FieldValue | undefined> {
  if (field.description) output.write(`  ${field.description}\n`);
  if (field.choices.length > 0)
    output.write(
      `${field.choices.map((c, i) => `    ${i + 1}) ${c.title}${c.title !== c.value ? ` (${c.value})` : ''}`).join('\n')}\n`,
    );
  const hint = field.kind === 'boolean' ? 'y/n' : field.kind === 'multi' ? 'comma-separated' : field.kind;
  const fallback = field.default === undefined ? '' : `, default ${JSON.stringify(field.default)}`;
  const prompt = `  ${field.label}${field.required ? ' *' : ''} [${hint}${fallback}]: `;
  for (;;) {
    const text = await question(prompt);
    if (text.trim() === '' && field.kind !== 'string') {
      if (field.default !== undefined) return field.default;
      if (!field.required) return undefined;
      output.write('  This field is required.\n');
      continue;
    }
    if (text === '' && field.kind === 'string') {
      if (field.default !== undefined) return field.default;
      if (!field.required) return undefined;
    }
    const parsed = parseTyped(field, text);
    if (parsed.ok) return parsed.value;
    output.write(`  ${parsed.reason}\n`);
  }
}

function action(text: string): ElicitResult['action'] | undefined {
  const t = text.trim().toLowerCase();
  if (t === 'a' || t === 'accept') return 'accept';
  if (t === 'd' || t === 'decline') return 'decline';
  if (t === 'c' || t === 'cancel') return 'cancel';
  return undefined;
}
