// The requests the simulated API answered, newest first, with their filter and Clear.
import type { PanelContext } from '../connection.js'
import { button, field, h, input, row, section, select, table } from '../dom.js'

export interface ShownEntry {
  time: string
  method: string
  path: string
  status: number
  duration: number
  operation: string | null
  orderId: number | bigint | null
}

/** The most requests kept: the page's (the server's journal keeps 1000 by default), and the corner panel's. */
const KEPT = { page: 5000, compact: 20 }

export function requestsSection(ctx: PanelContext) {
  const name = ctx.compact ? 'Last requests' : 'Requests'
  const columns = ['time', 'method', 'path', 'status', 'ms', 'operation', 'order id']
  const { table: requests, body } = table(name, columns, ctx.id('requests'))
  requests.id = ctx.id('requests-table')
  requests.prepend(
    h(
      'colgroup',
      {},
      ...['w-time', 'w-method', '', 'w-status', 'w-ms', 'w-operation', 'w-order'].map((width) => h('col', { class: width })),
    ),
  )
  const error = h('p', { class: 'error', id: ctx.id('requests-error'), role: 'alert' })
  let entries: ShownEntry[] = []
  const filter = h(
    'form',
    { id: ctx.id('requests-filter'), class: 'line' },
    select('Operation', 'operation', [['', 'any'], 'listOrders', 'cancelOrder', 'getPetById']),
    input('Status', 'status', { size: '4', inputmode: 'numeric' }),
    button('Clear', () => ctx.run(error, () => ctx.admin().clearRequests()), ctx.compact ? 'Clear requests' : undefined),
    error,
  )
  function render(): void {
    const [operation, status] = [field(filter, 'operation'), field(filter, 'status')]
    const shown = entries.filter(
      (entry) => (operation === '' || entry.operation === operation) && (status === '' || String(entry.status) === status),
    )
    body.replaceChildren(
      ...shown.reverse().map((entry) => {
        const tr = row([
          entry.time.slice(11, 23),
          entry.method,
          entry.path,
          entry.status,
          Math.round(entry.duration),
          entry.operation,
          entry.orderId,
        ])
        tr.children[2]?.classList.add('path')
        return tr
      }),
    )
    if (shown.length === 0) body.append(h('tr', {}, h('td', { colspan: '7', class: 'now' }, 'None yet.')))
  }
  filter.addEventListener('input', render)
  filter.addEventListener('submit', (event) => event.preventDefault())
  return {
    element: section(ctx.id('requests-section'), name, filter, h('div', { class: 'scroll' }, requests)),
    show(update: { reset: boolean; entries: ShownEntry[] }): void {
      entries = (update.reset ? update.entries : [...entries, ...update.entries]).slice(ctx.compact ? -KEPT.compact : -KEPT.page)
      render()
    },
  }
}
