// Builds the panel's elements in a few lines each; text only (textContent), never HTML.

type Child = Node | string
/** An element with its attributes (`hidden: true` sets a boolean one) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Readonly<Record<string, string | boolean>> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) if (value !== false) element.setAttribute(name, value === true ? '' : value)
  element.append(...children)
  return element
}
/** A `type="button"` button: a bare `<button>` inside a form would submit it. */
export function button(text: string, onClick: () => void, label?: string): HTMLButtonElement {
  const made = h('button', label === undefined ? { type: 'button' } : { type: 'button', 'aria-label': label }, text)
  made.addEventListener('click', onClick)
  return made
}
/** A paragraph that shows a refusal, beside the control that made it. */
export const alert = (id: string) => h('p', { class: 'error', id, role: 'alert' })
export const fieldset = (legend: string, ...children: Child[]) => h('fieldset', {}, h('legend', {}, legend), ...children)
/** Labelled text fields, each 'label|name|size|placeholder' (the placeholder optional). */
export const inputs = (fields: readonly string[], more: Readonly<Record<string, string>> = {}) =>
  fields.map((spec) => {
    const [label = '', name = '', size = '', placeholder = ''] = spec.split('|')
    return h('label', {}, label, h('input', { name, size, placeholder, autocomplete: 'off', ...more }))
  })
/** A labelled select of `options` (text, or [value, text]). */
export function select(label: string, name: string, options: readonly (string | readonly [string, string])[]): HTMLLabelElement {
  const choices = options.map((option) =>
    typeof option === 'string' ? h('option', {}, option) : h('option', { value: option[0] }, option[1]),
  )
  return h('label', {}, label, h('select', { name }, ...choices))
}
/** A form whose submit runs `onSubmit` (the page is not reloaded). */
export function form(attributes: Readonly<Record<string, string>>, onSubmit: (form: HTMLFormElement) => void, ...children: Child[]) {
  const made = h('form', attributes, ...children)
  made.addEventListener('submit', (event) => {
    event.preventDefault()
    onSubmit(made)
  })
  return made
}
/** A form field's trimmed text. */
export const field = (form: HTMLFormElement, name: string) =>
  ((form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '').trim()
/** The fields of `names` that are filled in, each as `as` reads its text: what a body carries (nothing for an empty one). */
export const filledIn = (form: HTMLFormElement, names: readonly string[], as: (text: string) => unknown = String) =>
  Object.fromEntries(names.flatMap((name) => (field(form, name) === '' ? [] : [[name, as(field(form, name))]])))
/** A table with an accessible name and its column headers; returns the table and its body. */
export function table(name: string, columns: readonly string[], id: string): { table: HTMLTableElement; body: HTMLTableSectionElement } {
  const body = h('tbody', { id })
  const head = h('thead', {}, h('tr', {}, ...columns.map((column) => h('th', { scope: 'col' }, column))))
  return { table: h('table', { 'aria-label': name }, head, body), body }
}
/** A table row of text cells. */
export const row = (cells: readonly unknown[]) =>
  h('tr', {}, ...cells.map((value) => h('td', {}, value === undefined || value === null ? '' : String(value))))
/** A section with a heading that names it (a region landmark for screen readers). */
export const section = (id: string, title: string, ...children: Child[]) =>
  h('section', { id, 'aria-labelledby': `${id}-title` }, h('h2', { id: `${id}-title` }, title), ...children)
