/**
 * Renders a `CallToolResult` by content type (text, image, audio, resource links, embedded resources),
 * `structuredContent` as a collapsible tree, and a failed task's JSON-RPC error. Built once per result.
 */
import { h } from './dom.js';

type Block = Readonly<Record<string, unknown>>;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** Only media types that browsers render as images or audio go into a `data:` URL. */
const SAFE_MEDIA = /^(image\/(png|jpeg|gif|webp|avif)|audio\/[a-z0-9.+-]+)$/;

/** The rendered result of a completed call. */
export function resultView(result: Readonly<Record<string, unknown>>): HTMLElement {
  const isError = result.isError === true;
  const content = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const view = h(
    'div',
    { class: `result${isError ? ' result-error' : ''}`, 'data-testid': 'result' },
    isError ? h('p', { class: 'badge badge-error' }, 'Tool error (isError)') : undefined,
    ...content.map(contentBlock),
  );
  if (result.structuredContent !== undefined) {
    view.append(
      h('details', { class: 'structured' }, h('summary', {}, 'structuredContent'), tree(result.structuredContent)),
    );
  }
  return view;
}

function contentBlock(block: Block): HTMLElement {
  const mime = str(block.mimeType) ?? '';
  switch (block.type) {
    case 'text':
      return h('pre', { class: 'text' }, str(block.text) ?? '');
    case 'image':
      return SAFE_MEDIA.test(mime)
        ? h('img', { src: `data:${mime};base64,${str(block.data) ?? ''}`, alt: 'Image returned by the tool' })
        : h('p', { class: 'muted' }, `Image of type ${mime || 'unknown'} (not shown)`);
    case 'audio':
      return SAFE_MEDIA.test(mime)
        ? h('audio', { controls: true, src: `data:${mime};base64,${str(block.data) ?? ''}` })
        : h('p', { class: 'muted' }, `Audio of type ${mime || 'unknown'} (not shown)`);
    case 'resource_link':
      return h(
        'p',
        { class: 'resource-link' },
        link(str(block.uri) ?? '', str(block.title) ?? str(block.name) ?? str(block.uri) ?? ''),
        str(block.description) === undefined ? undefined : ` — ${str(block.description)}`,
      );
    case 'resource':
      return embedded((block.resource ?? {}) as Block);
    default:
      return h('pre', { class: 'text muted' }, JSON.stringify(block, null, 2));
  }
}

/** Only web links become anchors; other schemes (file:, custom) are shown as text. */
function link(uri: string, label: string): HTMLElement {
  return /^https?:\/\//i.test(uri)
    ? h('a', { href: uri, target: '_blank', rel: 'noopener noreferrer' }, label)
    : h('code', {}, label === uri ? uri : `${label} (${uri})`);
}

function embedded(resource: Block): HTMLElement {
  const text = str(resource.text);
  const blob = str(resource.blob);
  return h(
    'figure',
    { class: 'embedded' },
    h('figcaption', {}, h('code', {}, str(resource.uri) ?? ''), ` ${str(resource.mimeType) ?? ''}`),
    text !== undefined ? h('pre', { class: 'text' }, text) : undefined,
    blob !== undefined ? h('p', { class: 'muted' }, `${Math.floor((blob.length * 3) / 4)} bytes (base64)`) : undefined,
  );
}

/** A JSON value as nested `<details>`: objects and arrays collapse, leaves show inline. */
export function tree(value: unknown, key?: string): HTMLElement {
  const label = key === undefined ? undefined : h('span', { class: 'key' }, `${key}: `);
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
    const summary = Array.isArray(value) ? `[${value.length}]` : `{${entries.length}}`;
    return h(
      'details',
      { class: 'tree', open: key === undefined || entries.length <= 12 },
      h('summary', {}, label, summary),
      h('ul', {}, ...entries.map(([k, v]) => h('li', {}, tree(v, k)))),
    );
  }
  return h('span', { class: 'leaf' }, label, h('span', { class: `json-${typeof value}` }, JSON.stringify(value)));
}

/** One line for the card's status line: the first line of the first text block, or what the result holds. */
export function resultPreview(result: Readonly<Record<string, unknown>>): string {
  const content = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const text = content.map((block) => str(block.text)).find((t) => t !== undefined && t.trim() !== '');
  const first =
    text?.trim().split('\n')[0] ??
    (content.length > 0
      ? content.map((block) => `[${String(block.type)}]`).join(' ')
      : result.structuredContent !== undefined
        ? '[structuredContent]'
        : '(empty result)');
  return result.isError === true ? `Tool error: ${first}` : first;
}

/** One line for the card's status line: the JSON-RPC error's code and message. */
export function errorPreview(error: { code: number; message: string }): string {
  return `JSON-RPC error ${error.code}: ${error.message}`;
}

/** A failed task's or call's JSON-RPC error: code, message, and data as a tree. */
export function errorView(error: { code: number; message: string; data?: unknown }): HTMLElement {
  return h(
    'div',
    { class: 'result result-error', 'data-testid': 'error' },
    h('p', { class: 'badge badge-error' }, `JSON-RPC error ${error.code}`),
    h('pre', { class: 'text' }, error.message),
    error.data === undefined ? undefined : tree(error.data, 'data'),
  );
}
