/**
 * A form generated from a JSON Schema object: one labelled control per property, defaults filled in, required
 * fields marked, and a message under each field that fails validation (linked with `aria-describedby`).
 */
import { h, uid } from './dom.js';
import { describeFields, type FieldSpec, initialText, type Json, parseField, type RawValue } from './schemaFields.js';

/** A rendered schema form. */
export interface SchemaForm {
  /** The fieldset holding the controls. */
  readonly element: HTMLElement;
  /** Validates every field; shows messages and focuses the first bad field. Undefined when something is invalid. */
  read(): Record<string, Json> | undefined;
}

interface Control {
  readonly field: FieldSpec;
  readonly raw: () => RawValue;
  readonly error: HTMLElement;
  readonly focusable: HTMLElement;
}

/** Builds the form for `schema`; `legend` names it for assistive technology. */
export function schemaForm(schema: unknown, legend: string): SchemaForm {
  const fields = describeFields(schema);
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
      const values: Record<string, Json> = {};
      let firstBad: HTMLElement | undefined;
      for (const { field, raw, error, focusable } of controls) {
        const parsed = parseField(field, raw());
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

function control(field: FieldSpec): Control {
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
  const { kind } = field;
  let input: HTMLElement;
  let raw: () => RawValue;
  if (kind.type === 'boolean') {
    const box = h('input', { ...common, type: 'checkbox', required: false, checked: field.defaultValue === true });
    raw = () => box.checked;
    input = box;
  } else if (kind.type === 'array' && kind.options !== undefined) {
    const defaults = new Set(Array.isArray(field.defaultValue) ? field.defaultValue.map(String) : []);
    const boxes = kind.options.map((o) =>
      h('input', { type: 'checkbox', value: String(o.value), checked: defaults.has(String(o.value)) }),
    );
    input = h(
      'div',
      { ...common, role: 'group', 'aria-labelledby': `${id}-label`, tabindex: -1 },
      ...kind.options.map((o, i) => h('label', { class: 'choice' }, boxes[i], ` ${o.label}`)),
    );
    label.id = `${id}-label`;
    raw = () => boxes.filter((b) => b.checked).map((b) => b.value);
  } else if ('options' in kind && kind.options !== undefined) {
    const select = h(
      'select',
      common,
      field.required ? undefined : h('option', { value: '' }, '—'),
      ...kind.options.map((o) =>
        h('option', { value: String(o.value), selected: String(o.value) === initialText(field) }, o.label),
      ),
    );
    raw = () => select.value;
    input = select;
  } else if (kind.type === 'array' || kind.type === 'json') {
    const area = h('textarea', { ...common, rows: kind.type === 'json' ? 4 : 3, spellcheck: false });
    area.value = initialText(field);
    if (kind.type === 'array') area.placeholder = 'one value per line';
    raw = () => area.value;
    input = area;
  } else {
    const numeric = kind.type === 'number' || kind.type === 'integer';
    const box = h('input', {
      ...common,
      type: numeric ? 'number' : inputType(field.schema.format),
      step: kind.type === 'integer' ? 1 : numeric ? 'any' : undefined,
      min: numeric && typeof field.schema.minimum === 'number' ? field.schema.minimum : undefined,
      max: numeric && typeof field.schema.maximum === 'number' ? field.schema.maximum : undefined,
    });
    box.value = initialText(field);
    raw = () => box.value;
    input = box;
  }
  h('div', { class: 'field' }, label, input, hint, error);
  return { field, raw, error, focusable: input };
}

function inputType(format: unknown): string {
  if (format === 'email') return 'email';
  if (format === 'uri') return 'url';
  if (format === 'date') return 'date';
  return 'text';
}
