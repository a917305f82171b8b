// Builds the panel's tables and lists from the admin API's JSON; text only (textContent), never HTML.

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

export interface PanelFault {
  id: number
  operation: string
  kind: string
  status?: number
  orderId?: number | string
  remaining: number | null
  probability?: number
  durationMs?: number
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T
}

function row(cells: readonly unknown[]): HTMLTableRowElement {
  const tr = document.createElement('tr')
  for (const value of cells) {
    const td = document.createElement('td')
    td.textContent = value === undefined || value === null ? '' : String(value)
    tr.append(td)
  }
  return tr
}

export function renderOrders(orders: readonly PanelOrder[]): void {
  const body = byId('orders')
  body.replaceChildren(
    ...orders.map((order) => {
      const tr = row([order.id, order.petId, order.quantity, order.shipDate, order.complete, order.status])
      tr.dataset['orderId'] = String(order.id)
      return tr
    }),
  )
  byId('orders-empty').hidden = orders.length > 0
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

function describeFault(fault: PanelFault): string {
  const parts = [`${fault.operation}: ${fault.kind}${fault.status === undefined ? '' : ` ${fault.status}`}`]
  if (fault.orderId !== undefined) parts.push(`order ${fault.orderId}`)
  if (fault.durationMs !== undefined) parts.push(`${fault.durationMs} ms`)
  if (fault.probability !== undefined) parts.push(`probability ${fault.probability}`)
  parts.push(fault.remaining === null ? 'every time' : `${fault.remaining} more time${fault.remaining === 1 ? '' : 's'}`)
  return parts.join(', ')
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

/** Latency ranges as the admin API gives them: `{ default: { min, max } }`, or null with none. */
export function describeLatency(latency: Record<string, { min: number; max: number }> | null): string {
  const parts = Object.entries(latency ?? {}).map(
    ([name, { min, max }]) => `${name === 'default' ? 'all' : name} ${min === max ? min : `${min}-${max}`} ms`,
  )
  return parts.length === 0 ? 'Now: none.' : `Now: ${parts.join(', ')}.`
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
