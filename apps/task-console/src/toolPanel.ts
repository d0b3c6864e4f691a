/** The tool list (name and description) and the call form generated from the chosen tool's `inputSchema`. */
import type { Tool } from '@mcp-tasks/protocol';
import { h } from './dom.js';
import { schemaForm } from './schemaForm.js';

/** Renders `tools` into `list`; choosing one shows its form in `formHost`, whose submit calls `onCall`. */
export function renderTools(
  tools: readonly Tool[],
  list: HTMLElement,
  formHost: HTMLElement,
  onCall: (name: string, args: Record<string, unknown>) => void,
): void {
  const buttons = tools.map((tool) => {
    const button = h(
      'button',
      { type: 'button', class: 'tool-button', 'aria-expanded': 'false' },
      tool.title ?? tool.name,
    );
    button.addEventListener('click', () => {
      for (const other of buttons) other.setAttribute('aria-expanded', String(other === button));
      formHost.replaceChildren(toolForm(tool, onCall));
      formHost.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
    });
    return button;
  });
  list.replaceChildren(
    ...tools.map((tool, i) =>
      h('li', { 'data-tool': tool.name }, buttons[i], h('span', { class: 'tool-description' }, tool.description ?? '')),
    ),
  );
  formHost.replaceChildren();
}

function toolForm(tool: Tool, onCall: (name: string, args: Record<string, unknown>) => void): HTMLFormElement {
  const fields = schemaForm(tool.inputSchema, `Arguments of ${tool.name}`);
  const form = h(
    'form',
    { class: 'tool-form', novalidate: true, 'aria-label': `Call ${tool.name}`, 'data-tool': tool.name },
    h('h3', {}, tool.name),
    tool.description === undefined ? undefined : h('p', { class: 'muted' }, tool.description),
    fields.element,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, `Call ${tool.name}`)),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const args = fields.read();
    if (args !== undefined) onCall(tool.name, args);
  });
  return form;
}
