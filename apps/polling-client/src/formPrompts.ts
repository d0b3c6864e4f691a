/**
 * One `@clack/prompts` prompt per elicitation form field. The prompt kind follows the field kind; what counts as a
 * valid answer (and the message when it is not) comes from the client's shared form checks (`formFields`).
 */
import type { Readable, Writable } from 'node:stream';
import { confirm, log, multiselect, select, text } from '@clack/prompts';
import { checkValue, type FormField, type JsonValue, parseText, typingHint } from '@mcp-tasks/client';

/** The streams and stop signal the prompts of one form share. */
export interface PromptIo {
  readonly common: { readonly input: Readable; readonly output: Writable; readonly signal: AbortSignal };
  /** A prompt's answer, `undefined` when the person pressed Escape; throws when the form was stopped. */
  settled<T>(value: T): Exclude<T, symbol> | undefined;
  close(): void;
}

/** Index of the "leave it empty" entry of an optional choice list. */
const SKIP = -1;

/**
 * Asks `field` until the answer is valid. Resolves with the value, `undefined` for an optional field left empty,
 * or `'cancelled'` when the person pressed Escape (the form is then cancelled).
 */
export async function askField(field: FormField, io: PromptIo): Promise<JsonValue | undefined | 'cancelled'> {
  const message = `${field.label}${field.required ? ' (required)' : ''}${field.description ? `\n${field.description}` : ''}`;
  switch (field.kind) {
    case 'boolean':
      return field.required || field.default !== undefined
        ? askYesNo(field, message, io)
        : askOptionalYesNo(message, io);
    case 'enum':
      return askChoice(field, message, io);
    case 'multi':
      return askMany(field, message, io);
    default:
      return askText(field, message, io);
  }
}

async function askYesNo(field: FormField, message: string, io: PromptIo): Promise<boolean | 'cancelled'> {
  const answer = io.settled(await confirm({ ...io.common, message, initialValue: field.default === true }));
  return answer ?? 'cancelled';
}

async function askOptionalYesNo(message: string, io: PromptIo): Promise<boolean | undefined | 'cancelled'> {
  const answer = io.settled(
    await select<number>({
      ...io.common,
      message,
      options: [
        { value: 1, label: 'Yes' },
        { value: 0, label: 'No' },
        { value: SKIP, label: '(leave empty)' },
      ],
    }),
  );
  if (answer === undefined) return 'cancelled';
  return answer === SKIP ? undefined : answer === 1;
}

async function askChoice(
  field: FormField,
  message: string,
  io: PromptIo,
): Promise<string | number | undefined | 'cancelled'> {
  const skip = !field.required && field.default === undefined;
  const initial = field.choices.findIndex((c) => c.value === field.default);
  const answer = io.settled(
    await select<number>({
      ...io.common,
      message,
      initialValue: initial === -1 ? undefined : initial,
      options: [...choiceOptions(field), ...(skip ? [{ value: SKIP, label: '(leave empty)' }] : [])],
    }),
  );
  if (answer === undefined) return 'cancelled';
  return answer === SKIP ? undefined : field.choices[answer]?.value;
}

async function askMany(
  field: FormField,
  message: string,
  io: PromptIo,
): Promise<(string | number)[] | undefined | 'cancelled'> {
  const defaults = new Set(Array.isArray(field.default) ? field.default.map(String) : []);
  let initialValues = field.choices.flatMap((c, i) => (defaults.has(String(c.value)) ? [i] : []));
  for (;;) {
    const picked = io.settled(
      await multiselect<number>({
        ...io.common,
        message,
        options: choiceOptions(field),
        initialValues,
        required: field.required,
      }),
    );
    if (picked === undefined) return 'cancelled';
    if (picked.length === 0 && !field.required) return undefined;
    const values = picked.map((i) => field.choices[i]?.value ?? '');
    const checked = checkValue(field, values);
    if (checked.ok) return values;
    // clack's multi-select takes no validator: say why and ask again with the same picks.
    log.error(checked.reason, io.common);
    initialValues = picked;
  }
}

async function askText(field: FormField, message: string, io: PromptIo): Promise<JsonValue | undefined | 'cancelled'> {
  const fallback = field.default === undefined ? undefined : String(field.default);
  const hint = typingHint(field);
  const answer = io.settled(
    await text({
      ...io.common,
      message,
      placeholder: fallback === undefined ? hint : `${fallback} (default${hint === undefined ? '' : `; ${hint}`})`,
      defaultValue: fallback,
      validate: (value) => {
        if ((value ?? '') === '')
          return fallback === undefined && field.required ? 'This field is required.' : undefined;
        const parsed = parseText(field, value ?? '');
        return parsed.ok ? undefined : parsed.reason;
      },
    }),
  );
  if (answer === undefined) return 'cancelled';
  if (answer === '') return field.default;
  const parsed = parseText(field, answer);
  return parsed.ok ? parsed.value : field.default;
}

function choiceOptions(field: FormField): { value: number; label: string; hint?: string }[] {
  return field.choices.map((c, i) => ({
    value: i,
    label: c.title,
    ...(c.title !== String(c.value) ? { hint: String(c.value) } : {}),
  }));
}
