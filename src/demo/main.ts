// A small consumer of the Petstore Orders Service, written the way a frontend
// developer would write one: plain fetch against the production address with
// a bearer key. The only simulator-specific code is the worker start and the
// scenario picker.
import { startSimulatorWorker } from '../browser.js'
import type { ErrorBody, Order } from '../core/glossary.js'

const API = 'https://api.petstore.example/v1'
const headers = { Authorization: 'Bearer petstore-test-key' }

/** An order as the list sends it: any field but the id may be missing (the status is sent with exposeStatus). */
type ListedOrder = Partial<Order> & { id: number }

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (found === null) throw new Error(`The demo page has no #${id}.`)
  return found as T
}

const rows = element<HTMLTableSectionElement>('orders')
const message = element<HTMLParagraphElement>('message')
const picker = element<HTMLSelectElement>('scenario')
const cancelForm = element<HTMLFormElement>('cancel-by-id')
element<HTMLElement>('api').textContent = API

function say(text: string, kind: 'ok' | 'error'): void {
  message.textContent = text
  message.className = kind
}

async function sayError(response: Response): Promise<void> {
  const body = (await response.json()) as ErrorBody
  say(`${body.status} ${body.code}: ${body.message}`, 'error')
}

function cell(text: string, status?: string): HTMLTableCellElement {
  const td = document.createElement('td')
  td.textContent = text
  if (status !== undefined) td.dataset['status'] = status
  return td
}

function render(orders: readonly ListedOrder[], changedId?: number): void {
  rows.replaceChildren()
  if (orders.length === 0) {
    const row = rows.insertRow()
    const td = cell('No orders.')
    td.colSpan = 7
    td.className = 'empty'
    row.append(td)
    return
  }
  for (const order of orders) {
    const row = rows.insertRow()
    row.dataset['orderId'] = String(order.id)
    if (order.id === changedId) row.className = 'changed'
    const action = document.createElement('td')
    // Only a pending order can be cancelled: a shipped or cancelled one gets no button.
    if (order.status === undefined || order.status === 'pending') {
      const button = document.createElement('button')
      button.type = 'button'
      button.textContent = `Cancel order ${order.id}`
      button.addEventListener('click', () => void cancel(order.id))
      action.append(button)
    }
    row.append(
      cell(String(order.id)),
      cell(order.petId === undefined ? '' : String(order.petId)),
      cell(order.quantity === undefined ? '' : String(order.quantity)),
      cell(order.shipDate === undefined ? '' : new Date(order.shipDate).toISOString().slice(0, 10)),
      cell(order.complete === undefined ? '' : order.complete ? 'yes' : 'no'),
      cell(order.status ?? '', order.status ?? ''),
      action,
    )
  }
}

async function loadOrders(changedId?: number): Promise<void> {
  const response = await fetch(`${API}/store/orders`, { headers })
  if (!response.ok) {
    render([])
    await sayError(response)
    return
  }
  render((await response.json()) as ListedOrder[], changedId)
}

async function cancel(id: number | string): Promise<void> {
  const response = await fetch(`${API}/store/orders/${encodeURIComponent(String(id))}`, { method: 'DELETE', headers })
  if (response.status === 204) say(`Order ${id} cancelled.`, 'ok')
  else await sayError(response)
  await loadOrders(Number(id))
}

// ?persist keeps the tab's state across reloads (sessionStorage); the browser tests load it so.
const query = new URLSearchParams(location.search)
const sim = await startSimulatorWorker({
  // The page shows each order's status, which the spec's list leaves out.
  exposeStatus: true,
  start: { serviceWorker: { url: './mockServiceWorker.js' }, quiet: true },
  ...(query.has('persist') ? { persist: 'session' as const } : {}),
  // ?devtools draws the in-page panel; its code is a chunk of its own, fetched only then.
  devtools: query.has('devtools'),
})
picker.value = sim.scenario().name
Object.assign(window, { petstoreSim: sim })

picker.addEventListener('change', async () => {
  await sim.reset(picker.value)
  say(`Scenario ${picker.value} loaded.`, 'ok')
  await loadOrders()
})
cancelForm.addEventListener('submit', (event) => {
  event.preventDefault()
  const id = new FormData(cancelForm).get('id')
  const trimmed = typeof id === 'string' ? id.trim() : ''
  // An empty id would send DELETE /store/orders/ (405): say what is missing instead.
  if (trimmed === '') say('Enter the id of the order to cancel.', 'error')
  else void cancel(trimmed)
})

await loadOrders()
document.body.dataset['ready'] = 'true'
