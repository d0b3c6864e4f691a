/**
 * The person answers a server's input request here: an elicitation form (accept / decline / cancel), a sampling
 * request answered in a text box, or a roots list. Each form answers once, then disables itself; an aborted call
 * (cancelled task, lost connection) withdraws the form.
 */
import type { InputContext } from '@mcp-tasks/client';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
} from '@mcp-tasks/protocol';
import { h } from './dom.js';
import { schemaForm } from './schemaForm.js';

/** Shows `form` in `host` until `answer` settles it or `signal` aborts; then marks it answered. */
function ask<T>(
  host: HTMLElement,
  form: HTMLFormElement,
  { signal }: InputContext,
  wire: (settle: (value: T, summary: string) => void) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const withdraw = () => {
      form.remove();
      reject(signal.reason);
    };
    if (signal.aborted) return withdraw();
    signal.addEventListener('abort', withdraw, { once: true });
    wire((value, summary) => {
      signal.removeEventListener('abort', withdraw);
      form.replaceWith(h('p', { class: 'answered', 'data-testid': 'answered' }, summary));
      resolve(value);
    });
    host.append(form);
    form.querySelector<HTMLElement>('input, textarea, select, button')?.focus({ preventScroll: true });
  });
}

/** The form's frame, headed by who asks: the tool the call named (the server, when the client cannot tell). */
function inputForm(kind: string, message: string, context: InputContext): HTMLFormElement {
  const asker = context.toolName ?? 'The server';
  return h(
    'form',
    {
      class: 'input-form',
      'data-kind': kind,
      'data-asker': asker,
      novalidate: true,
      'aria-label': `${asker} asks (${kind}): ${message}`,
    },
    h(
      'p',
      { class: 'input-message' },
      context.toolName === undefined
        ? h('strong', {}, 'The server asks: ')
        : h('strong', {}, h('code', { 'data-testid': 'asker' }, context.toolName), ' asks: '),
      message,
    ),
  );
}

/** Asks the person an `elicitation/create` question (form mode; URL mode shows the link to open). */
export function askElicitation(
  host: HTMLElement,
  params: ElicitRequestParams,
  context: InputContext,
): Promise<ElicitResult> {
  const form = inputForm('elicitation', params.message, context);
  const fields = 'requestedSchema' in params ? schemaForm(params.requestedSchema, params.message) : undefined;
  if (fields !== undefined) form.append(fields.element);
  if ('url' in params && typeof params.url === 'string') {
    form.append(h('p', {}, 'Open: ', h('code', {}, params.url)));
  }
  const accept = h('button', { type: 'submit', class: 'primary' }, 'Accept');
  const decline = h('button', { type: 'button', 'data-action': 'decline' }, 'Decline');
  const cancel = h('button', { type: 'button', 'data-action': 'cancel' }, 'Cancel');
  form.append(h('div', { class: 'actions' }, accept, decline, cancel));
  return ask<ElicitResult>(host, form, context, (settle) => {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const content = fields === undefined ? {} : fields.read();
      if (content === undefined) return;
      settle({ action: 'accept', content: content as ElicitResult['content'] }, 'You accepted.');
    });
    decline.addEventListener('click', () => settle({ action: 'decline' }, 'You declined.'));
    cancel.addEventListener('click', () => settle({ action: 'cancel' }, 'You cancelled the question.'));
  });
}

function messageText(content: unknown): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks
    .map((b) =>
      typeof b === 'object' && b !== null && 'text' in b
        ? String(b.text)
        : `[${String((b as { type?: unknown })?.type)}]`,
    )
    .join('\n');
}

/** Shows a `sampling/createMessage` conversation; the person writes the assistant's reply. */
export function askSampling(
  host: HTMLElement,
  params: CreateMessageRequestParams,
  context: InputContext,
): Promise<CreateMessageResult> {
  const form = inputForm('sampling', 'a model reply (sampling) — you are the model', context);
  if (params.systemPrompt !== undefined) form.append(h('p', { class: 'muted' }, `System: ${params.systemPrompt}`));
  form.append(
    h(
      'ol',
      { class: 'conversation' },
      ...params.messages.map((m) =>
        h(
          'li',
          { 'data-role': m.role },
          h('strong', {}, `${m.role}: `),
          h('pre', { class: 'text' }, messageText(m.content)),
        ),
      ),
    ),
  );
  const reply = h('textarea', { rows: 3, required: true, 'aria-label': 'Your reply', name: 'reply' });
  const error = h('span', { class: 'field-error', role: 'alert' });
  form.append(
    h('label', {}, `Your reply (at most ${params.maxTokens} tokens)`),
    reply,
    error,
    h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Send reply')),
  );
  return ask<CreateMessageResult>(host, form, context, (settle) => {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (reply.value.trim() === '') {
        error.textContent = 'Write a reply first';
        reply.focus();
        return;
      }
      settle(
        { role: 'assistant', content: { type: 'text', text: reply.value }, model: 'human', stopReason: 'endTurn' },
        'You replied.',
      );
    });
  });
}

/** Parses the roots editor: one URI per line, blank lines ignored. */
export function parseRoots(text: string): ListRootsResult['roots'] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((uri) => ({ uri, name: uri.replace(/\/+$/, '').split('/').pop() || uri }));
}

/** Shows a `roots/list` request with the current roots, editable before sending. */
export function askRoots(host: HTMLElement, current: string, context: InputContext): Promise<ListRootsResult> {
  const form = inputForm('roots', 'which folders (roots) may this tool use?', context);
  const list = h('textarea', { rows: 3, 'aria-label': 'Roots, one URI per line', spellcheck: false });
  list.value = current;
  form.append(list, h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Send roots')));
  return ask<ListRootsResult>(host, form, context, (settle) => {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const roots = parseRoots(list.value);
      settle({ roots }, `You shared ${roots.length} root${roots.length === 1 ? '' : 's'}.`);
    });
  });
}
