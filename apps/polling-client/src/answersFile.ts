/**
 * `--answers <file>`: canned answers for scripts and tests. A JSON object keyed by form field name; two reserved
 * keys steer the rest: `"$action"` (`accept` by default, or `decline` / `cancel`) and `"$sampling"` (the text to
 * reply to sampling requests instead of the built-in responder's).
 */
import { readFileSync } from 'node:fs';
import { checkValue, formFields, type JsonValue } from '@mcp-tasks/client';
import type { ElicitRequest, ElicitResult } from '@mcp-tasks/protocol';
import { UsageError } from './cliErrors.js';

/** A loaded answers file. */
export interface Answers {
  readonly action: 'accept' | 'decline' | 'cancel';
  readonly fields: Readonly<Record<string, unknown>>;
  readonly sampling: string | undefined;
  /** The file's path, for messages. */
  readonly path: string;
}

/** Reads and checks an answers file. Throws `UsageError` for a missing or malformed file. */
export function loadAnswers(path: string): Answers {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new UsageError(`Cannot read answers file ${path}: ${error instanceof Error ? error.message : error}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(`Answers file ${path} must hold a JSON object keyed by field name`);
  const { $action = 'accept', $sampling, ...fields } = value as Record<string, unknown>;
  if ($action !== 'accept' && $action !== 'decline' && $action !== 'cancel')
    throw new UsageError(`Answers file ${path}: "$action" must be accept, decline or cancel`);
  if ($sampling !== undefined && typeof $sampling !== 'string')
    throw new UsageError(`Answers file ${path}: "$sampling" must be a string`);
  return { action: $action, fields, sampling: $sampling, path };
}

/**
 * Answers one elicitation from the file: each field takes its answer, else its default; an optional field with
 * neither is left out. Throws `UsageError` when the file does not satisfy the form's schema: a required field
 * without a value, a value that does not fit its field, or a key the form does not ask for. The message names the
 * field and the rule, and the caller stops the run with it (exit 2) rather than answering a form the user never
 * filled in.
 */
export function answerFromFile(answers: Answers, params: ElicitRequest['params']): ElicitResult {
  if (answers.action !== 'accept') return { action: answers.action };
  if (params.mode === 'url') return { action: 'decline' };
  const fields = formFields(params.requestedSchema);
  const known = new Set(fields.map((field) => field.name));
  const unknown = Object.keys(answers.fields).filter((key) => !known.has(key));
  if (unknown.length > 0)
    throw new UsageError(
      `answers file ${answers.path}: ${unknown.map((k) => `"${k}"`).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a field of the form "${params.message}" (its fields: ${[...known].join(', ') || 'none'})`,
    );
  const content: Record<string, JsonValue> = {};
  for (const field of fields) {
    const raw = field.name in answers.fields ? answers.fields[field.name] : field.default;
    if (raw === undefined) {
      if (field.required)
        throw new UsageError(
          `answers file ${answers.path}: field "${field.name}" is required by the form "${params.message}"`,
        );
      continue;
    }
    const checked = checkValue(field, raw);
    if (!checked.ok)
      throw new UsageError(
        `answers file ${answers.path}: field "${field.name}": ${checked.reason}, got ${JSON.stringify(raw)}`,
      );
    content[field.name] = checked.value;
  }
  // Each value passed its field's check, and a requested schema has only primitive and string-list fields.
  return { action: 'accept', content: content as ElicitResult['content'] };
}
