/**
 * A form generated from a JSON Schema object: one labelled control per property, defaults filled in, required
 * fields marked, and a message under each field that fails validation (linked with `aria-describedby`).
 */
import { type FormField, formFields, type JsonValue, typingHint } from '@mcp-tasks/client';
import { h, uid } from './dom.js';
import { initialText, type RawValue, readField } from './fieldInput.js';

/** A rendered schema form. */
export interface SchemaForm {
  /** The fieldset holding the controls. */
  readonly element: HTMLElement;
  /** Validates every field; shows messages and focuses the first bad field. Undefined when something is invalid. */
  read(): Record<string, JsonValue> | undefined;
}

interface Control {
  readonly field: FormField;
  readonly raw: () => RawValue;
  readonly error: HTMLElement;
  readonly focusable: HTMLElement;
}

/** Builds the form for `schema`; `legend` names it for assistive technology. */
export function schemaForm(schema: unknown, legend: string): SchemaForm {
  const fields = formFields(schema);
  const controls = fields.map(control);
  const element = h(
    'fieldset',
    { class: 'schema-form' },
    h('legend', { class: 'visually-hidden' }, legend),
    ...controls.map((c) => c.focusable.closest('.field') ?? c.focusable),
    fields.length === 0 ? h('p', { class: 'muted' }, 'No arguments.') : undefined,
  );
  return {
    element,
    read() {
      const values: Record<string, JsonValue> = {};
      let firstBad: HTMLElement | undefined;
      for (const { field, raw, error, focusable } of controls) {
        const parsed = readField(field, raw());
        error.textContent = parsed.ok ? '' : parsed.error;
        focusable.setAttribute('aria-invalid', String(!parsed.ok));
        if (!parsed.ok) firstBad ??= focusable;
        else if (parsed.value !== undefined) values[field.name] = parsed.value;
      }
      firstBad?.focus();
      return firstBad === undefined ? values : undefined;
    },
  };
}

function control(field: FormField): Control {
  const id = uid('field');
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const error = h('span', { class: 'field-error', id: errorId, role: 'alert' });
  const hint =
    field.description === undefined ? undefined : h('span', { class: 'hint', id: hintId }, field.description);
  const describedBy = [hint === undefined ? undefined : hintId, errorId].filter(Boolean).join(' ');
  const common = { id, name: field.name, 'aria-describedby': describedBy, required: field.required };
  const label = h(
    'label',
    { for: id },
    field.label,
    field.required ? h('span', { 'aria-hidden': 'true' }, ' *') : undefined,
  );
  const { input, raw } = editor(field, common, label);
  h('div', { class: 'field' }, label, input, hint, error);
  return { field, raw, error, focusable: input };
}

type Common = Readonly<Record<string, string | boolean>>;

/** The control that edits `field`, by its kind, and how to read what it holds. */
function editor(field: FormField, common: Common, label: HTMLLabelElement): Editor {
  switch (field.kind) {
    case 'boolean': {
      const box = h('input', { ...common, type: 'checkbox', required: false, checked: field.default === true });
      return { input: box, raw: () => box.checked };
    }
    case 'multi':
      return checkboxes(field, common, label);
    case 'enum': {
      const select = h(
        'select',
        common,
        field.required ? undefined : h('option', { value: '' }, '—'),
        ...field.choices.map((c) =>
          h('option', { value: String(c.value), selected: String(c.value) === initialText(field) }, c.title),
        ),
      );
      return { input: select, raw: () => select.value };
    }
    case 'list':
    case 'json': {
      const area = h('textarea', { ...common, rows: field.kind === 'json' ? 4 : 3, spellcheck: false });
      area.value = initialText(field);
      if (field.kind === 'list') area.placeholder = 'one value per line';
      return { input: area, raw: () => area.value };
    }
    default:
      return textBox(field, common);
  }
}

interface Editor {
  readonly input: HTMLElement;
  readonly raw: () => RawValue;
}

/** A `multi` field: one checkbox per choice, in a group named by the field's label. */
function checkboxes(field: FormField, common: Common, label: HTMLLabelElement): Editor {
  const defaults = new Set(Array.isArray(field.default) ? field.default.map(String) : []);
  const boxes = field.choices.map((c) =>
    h('input', { type: 'checkbox', value: String(c.value), checked: defaults.has(String(c.value)) }),
  );
  label.id = `${String(common.id)}-label`;
  const input = h(
    'div',
    { ...common, role: 'group', 'aria-labelledby': label.id, tabindex: -1 },
    ...field.choices.map((c, i) => h('label', { class: 'choice' }, boxes[i], ` ${c.title}`)),
  );
  return { input, raw: () => boxes.filter((b) => b.checked).map((b) => b.value) };
}

/** A string or number field: a text box of the matching type, with what to type as its placeholder. */
function textBox(field: FormField, common: Common): Editor {
  const numeric = field.kind === 'number' || field.kind === 'integer';
  const box = h('input', {
    ...common,
    type: numeric ? 'number' : inputType(field.schema.format),
    step: field.kind === 'integer' ? 1 : numeric ? 'any' : undefined,
    min: numeric && typeof field.schema.minimum === 'number' ? field.schema.minimum : undefined,
    max: numeric && typeof field.schema.maximum === 'number' ? field.schema.maximum : undefined,
    placeholder: typingHint(field),
  });
  box.value = initialText(field);
  return { input: box, raw: () => box.value };
}

function inputType(format: unknown): string {
  if (format === 'email') return 'email';
  if (format === 'uri') return 'url';
  if (format === 'date') return 'date';
  return 'text';
}
