import type { Order } from '../core/glossary.js'
import type { SimulatorView } from '../core/simulator/types.js'
import { button, h, row, section, table } from './dom.js'

/** Runs one change of the simulator; a refusal is shown in `out`, next to the control that made it. */
export type Run = (out: HTMLElement, change: () => unknown) => void

type Action = 'Ship' | 'Cancel' | 'Remove'

/** What a row's button does, as the server panel's do: Ship and Cancel bypass the API's rules on purpose, like `updateOrder`. */
const ACTIONS: Record<Action, (sim: SimulatorView, id: Order['id']) => Promise<unknown>> = {
  // What the lifecycle does when an order ships.
  Ship: (sim, id) => sim.updateOrder(id, { status: 'shipped', complete: true }),
  Cancel: (sim, id) => sim.updateOrder(id, { status: 'cancelled' }),
  Remove: (sim, id) => sim.removeOrder(id),
}

/** The orders, one row each with its buttons ("Cancel order 3"); returns the section and what redraws it. */
export function ordersSection(sim: SimulatorView, run: Run): { element: HTMLElement; render(): void } {
  const { table: ordersTable, body } = table('Orders', ['id', 'petId', 'qty', 'status', 'actions'])
  const empty = h('p', { class: 'now', hidden: true }, 'No orders.')
  const error = h('p', { class: 'error', role: 'alert' })
  // Scrolls on its own: a long list would push the last requests out of sight.
  const element = section('sim-orders', 'Orders', h('div', { class: 'scroll' }, ordersTable), empty, error)

  function render(): void {
    // The rows are rebuilt: a focused button is found again by its name, so the keyboard keeps its place.
    const root = element.getRootNode() as Document | ShadowRoot
    const focused = body.contains(root.activeElement) ? root.activeElement?.getAttribute('aria-label') : null
    const orders = sim.orders()
    body.replaceChildren(
      ...orders.map((order) => {
        const tr = row([order.id, order.petId, order.quantity, order.status])
        tr.dataset['orderId'] = String(order.id)
        const actions: Action[] = order.status === 'pending' ? ['Ship', 'Cancel', 'Remove'] : ['Remove']
        const buttons = actions.map((action) =>
          button(action, () => run(error, () => ACTIONS[action](sim, order.id)), `${action} order ${order.id}`),
        )
        tr.append(h('td', { class: 'actions' }, ...buttons))
        return tr
      }),
    )
    empty.hidden = orders.length > 0
    if (focused !== null && focused !== undefined) {
      const buttons = [...body.querySelectorAll('button')]
      const id = focused.replace(/^\w+ order /, '')
      const again = buttons.find((candidate) => candidate.getAttribute('aria-label') === focused)
      const sameRow = buttons.find((candidate) => candidate.getAttribute('aria-label') === `Remove order ${id}`)
      ;(again ?? sameRow ?? buttons[0])?.focus()
    }
  }
  return { element, render }
}
