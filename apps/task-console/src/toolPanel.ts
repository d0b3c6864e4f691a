/** The tool list (name and description) and the call form generated from the chosen tool's `inputSchema`. */
import type { Tool } from '@mcp-tasks/protocol';
import { h } from './dom.js';
import { schemaForm } from './schemaForm.js';
import { isFixture, matchesFilter } from './toolGroups.js';

/**
 * Renders `tools` into `list`: the server's own tools first, then its conformance fixtures folded away under one
 * summary. Typing in `filter` shows only the tools whose name, title or description contains the text (and opens
 * the fixtures when one of them matches). Choosing a tool shows its form in `formHost`, whose submit calls `onCall`.
 */
export function renderTools(
  tools: readonly Tool[],
  list: HTMLElement,
  formHost: HTMLElement,
  onCall: (name: string, args: Record<string, unknown>) => void,
  filter?: HTMLInputElement,
): void {
  const buttons: HTMLButtonElement[] = [];
  const item = (tool: Tool) => {
    const button = h(
      'button',
      { type: 'button', class: 'tool-button', 'aria-expanded': 'false', title: tool.name },
      tool.title ?? tool.name,
    );
    button.addEventListener('click', () => {
      for (const other of buttons) other.setAttribute('aria-expanded', String(other === button));
      formHost.replaceChildren(toolForm(tool, onCall));
      // The list shrinks while a form is open: keep the chosen tool in sight in it.
      button.scrollIntoView({ block: 'nearest' });
      formHost.querySelector<HTMLElement>('input, select, textarea, button')?.focus();
    });
    buttons.push(button);
    return h(
      'li',
      { 'data-tool': tool.name },
      button,
      h('span', { class: 'tool-description' }, tool.description ?? ''),
    );
  };
  const own = tools.filter((tool) => !isFixture(tool));
  const fixtures = tools.filter(isFixture);
  const items = new Map<Tool, HTMLElement>();
  for (const tool of [...own, ...fixtures]) items.set(tool, item(tool));
  const folded =
    fixtures.length === 0
      ? undefined
      : h(
          'details',
          { class: 'fixtures' },
          h('summary', {}, `Conformance fixtures (${fixtures.length})`),
          h('ul', { class: 'tool-list' }, ...fixtures.map((tool) => items.get(tool))),
        );
  list.replaceChildren(
    ...own.map((tool) => items.get(tool) as HTMLElement),
    ...(folded === undefined ? [] : [h('li', { class: 'fixture-group' }, folded)]),
  );
  // Until a tool is chosen, say what to do (the Inspector's "Select a tool to view details"): an empty panel
  // left new users wondering where the call form was.
  formHost.replaceChildren(h('p', { class: 'muted tool-hint' }, 'Choose a tool to fill in its arguments and call it.'));
  if (filter === undefined) return;
  const apply = () => {
    let fixtureShown = false;
    for (const [tool, element] of items) {
      const shown = matchesFilter(tool, filter.value);
      element.hidden = !shown;
      if (shown && isFixture(tool)) fixtureShown = true;
    }
    if (folded !== undefined) {
      folded.parentElement?.toggleAttribute('hidden', !fixtureShown);
      if (filter.value.trim() !== '') folded.open = fixtureShown;
    }
  };
  filter.oninput = apply;
  apply();
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
