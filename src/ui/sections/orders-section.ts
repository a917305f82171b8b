// The orders, one row each with Ship, Cancel and Remove where they apply, and the Add order form.
import type * as v from 'valibot'
import type { AdminOrder } from '../../core/admin/admin-schemas.js'
import type { PanelContext } from '../connection.js'
import { alert, button, field, filledIn, form, h, inputs, row, section, select, table } from '../dom.js'

type ShownOrder = v.InferOutput<typeof AdminOrder>
type Action = 'Ship' | 'Cancel' | 'Remove'

/** A number field's value: exact digits (a bigint past 2^53), a number, or the text, for the server to refuse with its own message. */
export function numberOr(text: string): number | bigint | string {
  if (/^-?\d+$/.test(text) && !Number.isSafeInteger(Number(text))) return BigInt(text)
  return /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? Number(text) : text
}

/** The Add order form's body, with only the fields filled. */
const newOrder = (added: HTMLFormElement) => ({
  status: field(added, 'status'),
  ...filledIn(added, ['id', 'petId', 'quantity'], numberOr),
  ...filledIn(added, ['shipDate']),
  ...filledIn(added, ['complete'], (text) => text === 'true'),
})

export function ordersSection(ctx: PanelContext) {
  const columns = ['id', 'petId', 'quantity', 'shipDate', 'complete', 'status', 'actions']
  const { table: orders, body } = table('Orders', columns, ctx.id('orders'))
  const empty = h('p', { id: ctx.id('orders-empty'), class: 'now', hidden: true }, 'No orders.')
  const [error, addError] = [alert(ctx.id('orders-error')), alert(ctx.id('add-order-error'))]
  const admin = () => ctx.admin()
  // Ship is what the lifecycle does when an order ships; all three bypass the API's rules on purpose.
  const ACTIONS: Record<Action, (orderId: bigint | number) => Promise<unknown>> = {
    Ship: (orderId) => admin().updateOrder({ orderId, body: { status: 'shipped', complete: true } }),
    Cancel: (orderId) => admin().updateOrder({ orderId, body: { status: 'cancelled' } }),
    Remove: (orderId) => admin().removeOrder({ orderId }),
  }
  const add = (added: HTMLFormElement) =>
    ctx.run(addError, async () => {
      await admin().addOrder({ body: newOrder(added) as never })
      // The next add takes the next free id unless another is typed.
      ;(added.elements.namedItem('id') as HTMLInputElement).value = ''
    })
  const ids = inputs(['Id|id|20|next free', 'Pet id|petId|20', 'Quantity|quantity|4'], { inputmode: 'numeric' })
  const complete = select('Complete', 'complete', [['', 'not set'], 'false', 'true'])
  const fields = [...ids, ...inputs(['Ship date|shipDate|24|2026-12-01T09:00:00.000Z']), complete]
  fields.push(select('Status', 'status', ['pending', 'shipped', 'cancelled']))
  const adding = form({ id: ctx.id('add-order-form'), class: 'line', 'aria-labelledby': ctx.id('add-order-title') }, add, ...fields)
  adding.append(h('button', { type: 'submit' }, 'Add order'), addError)
  const element = section(ctx.id('orders-section'), 'Orders', h('div', { class: 'scroll' }, orders), empty, error)
  element.append(h('h3', { id: ctx.id('add-order-title') }, 'Add order'), adding)

  function rowOf(order: ShownOrder): HTMLTableRowElement {
    const tr = row([order.id, order.petId, order.quantity, order.shipDate, order.complete, order.status])
    tr.dataset['orderId'] = String(order.id)
    const actions: Action[] = order.status === 'pending' ? ['Ship', 'Cancel', 'Remove'] : ['Remove']
    // The corner panel's buttons name their order: its rows scroll out of sight.
    const act = (action: Action) =>
      button(action, () => ctx.run(error, () => ACTIONS[action](order.id)), ctx.compact ? `${action} order ${order.id}` : undefined)
    tr.append(h('td', { class: 'actions' }, ...actions.map(act)))
    return tr
  }
  /** Rebuilt on each change: a focused button's focus goes back to it, or to what is left of its row, or to the next row. */
  function show(list: readonly ShownOrder[]): void {
    const focused = ctx.focused()
    const was = focused instanceof HTMLButtonElement && body.contains(focused) ? focused : null
    const wasRow = was?.closest('tr')
    const index = wasRow?.sectionRowIndex ?? 0
    body.replaceChildren(...list.map(rowOf))
    empty.hidden = list.length > 0
    if (wasRow === undefined || wasRow === null) return
    const rows = [...body.rows]
    const same = rows.find((tr) => tr.dataset['orderId'] === wasRow.dataset['orderId'])
    const buttons = [...((same ?? rows[Math.min(index, rows.length - 1)])?.querySelectorAll('button') ?? [])]
    const again = same && buttons.find((candidate) => candidate.textContent === was?.textContent)
    // With no row left, the Add order form is the next thing to use.
    ;(again ?? buttons.at(-1) ?? adding.querySelector('input'))?.focus()
  }
  return { element, show }
}
