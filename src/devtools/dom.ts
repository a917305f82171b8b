// Builds the panel's elements in a few lines each; text only (textContent), never HTML.

type Child = Node | string

/** An element with its attributes (`hidden: true` sets a boolean one) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string | boolean>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(name, '')
    else if (value !== false) element.setAttribute(name, value)
  }
  element.append(...children)
  return element
}

/** A `type="button"` button: a bare `<button>` inside a form would submit it. */
export function button(text: string, onClick: () => void, label?: string): HTMLButtonElement {
  const made = h('button', label === undefined ? { type: 'button' } : { type: 'button', 'aria-label': label }, text)
  made.addEventListener('click', onClick)
  return made
}

/** A table row of text cells. */
export function row(cells: readonly unknown[]): HTMLTableRowElement {
  return h('tr', {}, ...cells.map((value) => h('td', {}, value === undefined || value === null ? '' : String(value))))
}

/** A table with a caption-free accessible name and its column headers; returns the table and its body. */
export function table(name: string, columns: readonly string[]): { table: HTMLTableElement; body: HTMLTableSectionElement } {
  const body = h('tbody')
  const head = h('thead', {}, h('tr', {}, ...columns.map((column) => h('th', { scope: 'col' }, column))))
  return { table: h('table', { 'aria-label': name }, head, body), body }
}

/** A section with a heading that names it (a region landmark for screen readers). */
export function section(id: string, title: string, ...children: Child[]): HTMLElement {
  return h('section', { 'aria-labelledby': `${id}-title` }, h('h2', { id: `${id}-title` }, title), ...children)
}
