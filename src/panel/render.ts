// Builds the panel's tables and lists from the admin API's JSON; text only (textContent), never HTML.
import { describeFault, type ShownFault } from '../ui/fault-presets.js'

export interface PanelOrder {
  id: number | string
  petId?: number | string
  quantity?: number
  shipDate?: string
  complete?: boolean
  status?: string
}

export interface PanelEntry {
  time: string
  method: string
  path: string
  status: number
  duration: number
  operation: string | null
  orderId: number | string | null
}

export type PanelFault = ShownFault

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T
}

/** A form field's trimmed text. */
export const field = (form: HTMLFormElement, name: string) =>
  ((form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '').trim()

function row(cells: readonly unknown[]): HTMLTableRowElement {
  const tr = document.createElement('tr')
  for (const value of cells) {
    const td = document.createElement('td')
    td.textContent = value === undefined || value === null ? '' : String(value)
    tr.append(td)
  }
  return tr
}

/** What a row's buttons do; "Ship" and "Cancel" apply to pending orders only, "Remove" to any. */
export type OrderAction = 'Ship' | 'Cancel' | 'Remove'

function actionsOf(order: PanelOrder): OrderAction[] {
  return order.status === 'pending' ? ['Ship', 'Cancel', 'Remove'] : ['Remove']
}

/**
 * Every order, one row each, with its buttons in the last column. The table is
 * rebuilt on each change, so focus on a row's button is put back on the same
 * button, or on what is left of that row (Ship gone: Remove), or on the next row.
 */
export function renderOrders(orders: readonly PanelOrder[], act: (order: PanelOrder, action: OrderAction) => void): void {
  const body = byId<HTMLTableSectionElement>('orders')
  const focused =
    document.activeElement instanceof HTMLButtonElement && body.contains(document.activeElement) ? document.activeElement : null
  const focusedRow = focused?.closest('tr')
  const before = focusedRow ? { id: focusedRow.dataset['orderId'], action: focused?.textContent, index: focusedRow.sectionRowIndex } : null
  body.replaceChildren(
    ...orders.map((order) => {
      const tr = row([order.id, order.petId, order.quantity, order.shipDate, order.complete, order.status])
      tr.dataset['orderId'] = String(order.id)
      const cell = document.createElement('td')
      cell.className = 'actions'
      for (const action of actionsOf(order)) {
        const button = document.createElement('button')
        button.type = 'button'
        button.textContent = action
        button.addEventListener('click', () => act(order, action))
        cell.append(button)
      }
      tr.append(cell)
      return tr
    }),
  )
  byId('orders-empty').hidden = orders.length > 0
  if (before !== null) {
    const rows = [...body.rows]
    const same = rows.find((tr) => tr.dataset['orderId'] === before.id)
    const buttons = [...((same ?? rows[Math.min(before.index, rows.length - 1)])?.querySelectorAll('button') ?? [])]
    const button = (same && buttons.find((candidate) => candidate.textContent === before.action)) ?? buttons.at(-1)
    // With no row left, the Add order form is the next thing to use.
    ;(button ?? byId('add-order-form').querySelector('input'))?.focus()
  }
}

/** Newest first, those that pass the filter form's operation and status. */
export function renderRequests(entries: readonly PanelEntry[], operation: string, status: string): void {
  const shown = entries.filter(
    (entry) => (operation === '' || entry.operation === operation) && (status === '' || String(entry.status) === status),
  )
  byId('requests').replaceChildren(
    ...shown
      .reverse()
      .map((entry) =>
        row([entry.time.slice(11, 23), entry.method, entry.path, entry.status, entry.duration, entry.operation, entry.orderId]),
      ),
  )
}

export function renderFaults(faults: readonly PanelFault[], remove: (id: number) => void): void {
  const list = byId('faults')
  if (faults.length === 0) {
    const none = document.createElement('li')
    none.textContent = 'None.'
    list.replaceChildren(none)
    return
  }
  list.replaceChildren(
    ...faults.map((fault) => {
      const item = document.createElement('li')
      const button = document.createElement('button')
      button.type = 'button'
      button.textContent = 'Remove'
      button.setAttribute('aria-label', `Remove fault ${fault.id}`)
      button.addEventListener('click', () => remove(fault.id))
      item.append(`#${fault.id} ${describeFault(fault)} `, button)
      return item
    }),
  )
}

/** A duration in ms as people say it: 500 ms, 1.5 s, 30 s, 2 min, 1 h. */
function describeDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`
  return ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`
}

/** `state.options.lifecycle`: when pending orders ship by themselves, or null when they never do. */
export function describeLifecycle(lifecycle: { min: number; max: number } | null | undefined): string {
  if (lifecycle === null || lifecycle === undefined) return 'Lifecycle: none (orders change only when someone changes them).'
  const after =
    lifecycle.min === lifecycle.max
      ? describeDuration(lifecycle.min)
      : `between ${describeDuration(lifecycle.min)} and ${describeDuration(lifecycle.max)}`
  return `Lifecycle: pending orders ship ${after} after they are loaded, reset or added.`
}

export interface PanelClock {
  now: string
  advancedMs: number
  lifecycle: { min: number; max: number } | null
  pending: { orderId: number | string; status: string; at: string }[]
}

/** A time as ISO 8601 to the second: the milliseconds of a simulated clock mean nothing to a reader. */
const isoSecond = (time: number | string) => `${new Date(time).toISOString().slice(0, 19)}Z`

/** `GET /__sim/clock` with the simulated time `now` (ms): the time and the transitions still to come, soonest first. */
export function describeClock(clock: PanelClock, now: number): string {
  const advanced = clock.advancedMs === 0 ? 'not advanced' : `advanced ${describeDuration(clock.advancedMs)}`
  const time = `Simulated time: ${isoSecond(now)} (${advanced} since the last load or reset).`
  const [next] = clock.pending
  if (next === undefined) return `${time} No transitions to come.`
  const count = clock.pending.length === 1 ? '1 transition' : `${clock.pending.length} transitions`
  return `${time} ${count} to come, the soonest at ${isoSecond(next.at)} (order ${next.orderId} ${next.status === 'shipped' ? 'ships' : `becomes ${next.status}`}).`
}

export function replaceOptions(select: HTMLSelectElement, options: readonly { value: string; label: string }[], chosen: string): void {
  select.replaceChildren(
    ...options.map(({ value, label }) => {
      const option = document.createElement('option')
      option.value = value
      option.textContent = label
      return option
    }),
  )
  select.value = chosen
}
