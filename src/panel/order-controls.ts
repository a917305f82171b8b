// The orders' own controls: each row's Ship, Cancel and Remove, the Add order form, the lifecycle and the clock.
import type { AdminApi } from './admin-api.js'
import {
  byId,
  describeClock,
  describeLifecycle,
  field,
  type OrderAction,
  type PanelClock,
  type PanelOrder,
  renderOrders,
} from './render.js'

/** Runs one change; a refusal is shown in the element `errorId`, next to the control that made it. */
export type Change = (errorId: string, run: () => Promise<unknown>) => Promise<void>

/** The `state` event's part that this file shows. */
export interface OrdersState {
  options: { lifecycle?: { min: number; max: number } | null }
  orders: PanelOrder[]
}

/** What a row's button asks of the admin API. */
const ORDER_CHANGES: Record<OrderAction, { method: string; body?: unknown }> = {
  // What the lifecycle does when an order ships.
  Ship: { method: 'PATCH', body: { status: 'shipped', complete: true } },
  Cancel: { method: 'PATCH', body: { status: 'cancelled' } },
  Remove: { method: 'DELETE' },
}

/**
 * The JSON text of a number field: the digits as typed when they are a JSON
 * number (an int64 beyond 2^53 would lose digits through a Number), else a
 * string, for the server to refuse with its own message.
 */
const jsonNumberOr = (text: string): string => (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? text : JSON.stringify(text))

/** The body of `POST /__sim/orders` with only the fields filled, written as JSON text so that an id or petId keeps every digit. */
function newOrderJson(form: HTMLFormElement): string {
  const members = ['id', 'petId', 'quantity']
    .filter((name) => field(form, name) !== '')
    .map((name) => `"${name}":${jsonNumberOr(field(form, name))}`)
  if (field(form, 'shipDate') !== '') members.push(`"shipDate":${JSON.stringify(field(form, 'shipDate'))}`)
  if (field(form, 'complete') !== '') members.push(`"complete":${field(form, 'complete') === 'true'}`)
  members.push(`"status":${JSON.stringify(field(form, 'status'))}`)
  return `{${members.join(',')}}`
}

/** Wires the forms; returns what shows a `state` event: the rows, the lifecycle and the clock. */
export function orderControls(api: AdminApi, change: Change): (state: OrdersState) => void {
  // The id's own text in the URL: an int64 beyond 2^53 arrives as its digits.
  const changeOrder = (order: PanelOrder, action: OrderAction) =>
    void change('orders-error', () => api.call(ORDER_CHANGES[action].method, `/orders/${String(order.id)}`, ORDER_CHANGES[action].body))

  let clockAsked = 0
  let clock: PanelClock | null = null
  /** The simulated time less the page's: the server's clock is real time plus the advances, so it runs on between asks. */
  let aheadMs = 0
  const renderClock = () => {
    if (clock !== null) byId('clock-now').textContent = describeClock(clock, Date.now() + aheadMs)
  }
  setInterval(renderClock, 1000)
  /** Shows the clock given, or `GET /__sim/clock`: only the latest ask's answer, as answers may cross. */
  async function showClock(given?: PanelClock): Promise<void> {
    const asked = ++clockAsked
    const answer = given ?? ((await api.call('GET', '/clock')) as PanelClock)
    if (asked !== clockAsked) return
    clock = answer
    aheadMs = Date.parse(answer.now) - Date.now()
    renderClock()
  }

  byId('clock-form').addEventListener('submit', (event) => {
    event.preventDefault()
    const advance = field(event.currentTarget as HTMLFormElement, 'advance')
    // A bare number is milliseconds; anything else goes as text ("30s"), for the server to read or refuse.
    const body = `{"advance":${/^\d+$/.test(advance) ? advance : JSON.stringify(advance)}}`
    void change('clock-error', async () => showClock((await api.call('POST', '/clock', body)) as PanelClock))
  })
  byId('add-order-form').addEventListener('submit', (event) => {
    event.preventDefault()
    const form = event.currentTarget as HTMLFormElement
    void change('add-order-error', async () => {
      await api.call('POST', '/orders', newOrderJson(form))
      // The next add takes the next free id unless another is typed.
      ;(form.elements.namedItem('id') as HTMLInputElement).value = ''
    })
  })

  return (state) => {
    renderOrders(state.orders, changeOrder)
    byId('lifecycle-now').textContent = describeLifecycle(state.options.lifecycle)
    // A load, reset or change of the orders moves the transitions to come.
    void change('clock-error', () => showClock())
  }
}
