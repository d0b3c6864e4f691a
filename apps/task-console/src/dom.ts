/** A tiny element builder: enough for a page that builds each element once and then only updates text. */

type Attributes = Readonly<Record<string, string | number | boolean | undefined>>;
type Child = Node | string | undefined | false;

/** Creates `<tag>` with attributes (`class`, `data-*`, `aria-*`, booleans as presence) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== undefined && child !== false) element.append(child);
  return element;
}

/** Sets `textContent` only when it changed, so an unchanged update costs no layout. */
export function setText(element: Element, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}

/** Sets an attribute only when it changed. */
export function setAttr(element: Element, name: string, value: string): void {
  if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}

let nextId = 0;
/** A document-unique id for label/description wiring. */
export function uid(prefix: string): string {
  nextId += 1;
  return `${prefix}-${nextId}`;
}
