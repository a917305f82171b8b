// The requests the simulated API answered, newest first, with their filter and Clear.
import type * as v from 'valibot'
import type { JournalEntry } from '../../core/admin/admin-schemas.js'
import type { PanelContext } from '../connection.js'
import { alert, button, field, h, inputs, row, section, select, table } from '../dom.js'

export type ShownEntry = v.InferOutput<typeof JournalEntry>

/** The most requests the page keeps (the server's journal keeps 1000 by default), and the corner panel. */
const KEPT = { page: 5000, compact: 20 }
const WIDTHS = ['w-time', 'w-method', '', 'w-status', 'w-ms', 'w-operation', 'w-order']

export function requestsSection(ctx: PanelContext) {
  const name = ctx.compact ? 'Last requests' : 'Requests'
  const { table: requests, body } = table(name, ['time', 'method', 'path', 'status', 'ms', 'operation', 'order id'], ctx.id('requests'))
  requests.id = ctx.id('requests-table')
  requests.prepend(h('colgroup', {}, ...WIDTHS.map((width) => h('col', { class: width }))))
  const error = alert(ctx.id('requests-error'))
  const clear = button('Clear', () => ctx.run(error, () => ctx.admin().clearRequests()), ctx.compact ? 'Clear requests' : undefined)
  const operations = select('Operation', 'operation', [['', 'any'], 'listOrders', 'cancelOrder', 'getPetById'])
  const filter = h('form', { id: ctx.id('requests-filter'), class: 'line' }, operations, ...inputs(['Status|status|4']), clear, error)
  let entries: ShownEntry[] = []
  function render(): void {
    const [operation, status] = [field(filter, 'operation'), field(filter, 'status')]
    const shown = entries.filter(
      (entry) => (operation === '' || entry.operation === operation) && (status === '' || `${entry.status}` === status),
    )
    const cells = (entry: ShownEntry) => [entry.time.slice(11, 23), entry.method, entry.path, entry.status, Math.round(entry.duration)]
    body.replaceChildren(...shown.reverse().map((entry) => row([...cells(entry), entry.operation, entry.orderId])))
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
