// The orders, one row each with Ship, Cancel and Remove where they apply, and the Add order form.
import type { PanelContext } from '../connection.js'
import { button, field, form, h, input, row, section, select, table } from '../dom.js'

export interface ShownOrder {
  id: number | bigint
  petId?: number | bigint
  quantity?: number
  shipDate?: string
  complete?: boolean
  status: string
}
type Action = 'Ship' | 'Cancel' | 'Remove'

/** A number field's value: exact digits (a bigint past 2^53), a number, or the text for the server to refuse with its own message. */
export const numberOr = (text: string): number | bigint | string =>
  /^-?\d+$/.test(text) && !Number.isSafeInteger(Number(text))
    ? BigInt(text)
    : /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text)
      ? Number(text)
      : text

/** The Add order form's body, with only the fields filled. */
function newOrder(added: HTMLFormElement): Record<string, unknown> {
  const order: Record<string, unknown> = { status: field(added, 'status') }
  for (const name of ['id', 'petId', 'quantity']) if (field(added, name) !== '') order[name] = numberOr(field(added, name))
  if (field(added, 'shipDate') !== '') order['shipDate'] = field(added, 'shipDate')
  if (field(added, 'complete') !== '') order['complete'] = field(added, 'complete') === 'true'
  return order
}

export function ordersSection(ctx: PanelContext): { element: HTMLElement; show(orders: readonly ShownOrder[]): void } {
  const columns = ['id', 'petId', 'quantity', 'shipDate', 'complete', 'status', 'actions']
  const { table: orders, body } = table('Orders', columns, ctx.id('orders'))
  const empty = h('p', { id: ctx.id('orders-empty'), class: 'now', hidden: true }, 'No orders.')
  const error = h('p', { class: 'error', id: ctx.id('orders-error'), role: 'alert' })
  const addError = h('p', { class: 'error', id: ctx.id('add-order-error'), role: 'alert' })
  const admin = () => ctx.admin()
  // Ship is what the lifecycle does when an order ships; all three bypass the API's rules on purpose.
  const ACTIONS: Record<Action, (orderId: bigint | number) => Promise<unknown>> = {
    Ship: (orderId) => admin().updateOrder({ orderId, body: { status: 'shipped', complete: true } }),
    Cancel: (orderId) => admin().updateOrder({ orderId, body: { status: 'cancelled' } }),
    Remove: (orderId) => admin().removeOrder({ orderId }),
  }
  const adding = form(
    { id: ctx.id('add-order-form'), class: 'line', 'aria-labelledby': ctx.id('add-order-title') },
    (added) =>
      ctx.run(addError, async () => {
        await admin().addOrder({ body: newOrder(added) as never })
        // The next add takes the next free id unless another is typed.
        ;(added.elements.namedItem('id') as HTMLInputElement).value = ''
      }),
    input('Id', 'id', { size: '20', inputmode: 'numeric', placeholder: 'next free' }),
    input('Pet id', 'petId', { size: '20', inputmode: 'numeric' }),
    input('Quantity', 'quantity', { size: '4', inputmode: 'numeric' }),
    input('Ship date', 'shipDate', { size: '24', placeholder: '2026-12-01T09:00:00.000Z' }),
    select('Complete', 'complete', [['', 'not set'], 'false', 'true']),
    select('Status', 'status', ['pending', 'shipped', 'cancelled']),
    h('button', { type: 'submit' }, 'Add order'),
    addError,
  )
  const element = section(ctx.id('orders-section'), 'Orders', h('div', { class: 'scroll' }, orders), empty, error)
  element.append(h('h3', { id: ctx.id('add-order-title') }, 'Add order'), adding)

  /**
   * Rebuilt on each change: focus on a row's button goes back to the same button,
   * or to what is left of that row (Ship gone: Remove), or to the next row.
   */
  function show(list: readonly ShownOrder[]): void {
    const focused = ctx.focused()
    const was = focused instanceof HTMLButtonElement && body.contains(focused) ? focused : null
    const wasRow = was?.closest('tr')
    const before = wasRow ? { id: wasRow.dataset['orderId'], action: was?.textContent, index: wasRow.sectionRowIndex } : null
    body.replaceChildren(
      ...list.map((order) => {
        const tr = row([order.id, order.petId, order.quantity, order.shipDate, order.complete, order.status])
        tr.dataset['orderId'] = String(order.id)
        const actions: Action[] = order.status === 'pending' ? ['Ship', 'Cancel', 'Remove'] : ['Remove']
        const label = (action: Action) => (ctx.compact ? `${action} order ${order.id}` : undefined)
        tr.append(
          h(
            'td',
            { class: 'actions' },
            ...actions.map((action) => button(action, () => ctx.run(error, () => ACTIONS[action](order.id)), label(action))),
          ),
        )
        return tr
      }),
    )
    empty.hidden = list.length > 0
    if (before === null) return
    const rows = [...body.rows]
    const same = rows.find((tr) => tr.dataset['orderId'] === before.id)
    const buttons = [...((same ?? rows[Math.min(before.index, rows.length - 1)])?.querySelectorAll('button') ?? [])]
    // With no row left, the Add order form is the next thing to use.
    ;(
      (same && buttons.find((candidate) => candidate.textContent === before.action)) ??
      buttons.at(-1) ??
      adding.querySelector('input')
    )?.focus()
  }
  return { element, show }
}
