/**
 * What a form control held, read into the value its field asks for. The schema rules (types, limits, formats,
 * choices) are the client's shared `formFields` checks; this module adds only what is the page's own: an empty
 * control means "leave the property out" (or "required"), a checkbox is a boolean, checked boxes are the picks.
 */
import { checkValue, type FormField, type JsonValue, parseText } from '@mcp-tasks/client';

/** What a field's control held: text for most kinds, a flag for a checkbox, the checked values of a multi-select. */
export type RawValue = string | boolean | readonly string[];

/** A read field: `value` undefined means "leave the property out". */
export type FieldInput =
  | { readonly ok: true; readonly value: JsonValue | undefined }
  | { readonly ok: false; readonly error: string };

/** Reads and checks one control's value; the error is a sentence to show under the field. */
export function readField(field: FormField, raw: RawValue): FieldInput {
  if (typeof raw === 'boolean') return { ok: true, value: raw };
  const empty = Array.isArray(raw) ? raw.length === 0 : String(raw).trim() === '';
  if (empty) return field.required ? { ok: false, error: 'Required' } : { ok: true, value: undefined };
  const checked = Array.isArray(raw)
    ? checkValue(
        field,
        raw.map((item) => field.choices.find((c) => String(c.value) === item)?.value ?? item),
      )
    : parseText(field, String(raw));
  if (checked.ok) return checked;
  return { ok: false, error: `${checked.reason.charAt(0).toUpperCase()}${checked.reason.slice(1)}` };
}

/** The text a field's control starts with: its default, shown the way the person would type it. */
export function initialText(field: FormField): string {
  const value = field.default;
  if (value === undefined || value === null) return '';
  if (field.kind === 'list' && Array.isArray(value)) return value.map(String).join('\n');
  return field.kind === 'json' ? JSON.stringify(value, null, 2) : String(value);
}
