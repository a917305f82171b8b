import { ORDER_STATUSES } from '../../core/glossary.js'
import { int64Key, int64Value } from '../../core/int64.js'
import { isDateTime } from '../../core/scenario/date-time.js'
import { isPlainObject } from '../../core/scenario/plain-object.js'
import type { Scenario } from '../../core/scenario/scenario.js'

/** One order as a scenario file holds it. */
type ScenarioOrder = NonNullable<Scenario['orders']>[number]

/** The orders of a service's list as a scenario holds them, and how their statuses were decided. */
export interface ListedOrders {
  orders: ScenarioOrder[]
  /** One clause for the scenario's description: which status rule was used. */
  statusRule: string
  /** True when every order carried a status of its own: the service shows it, so the simulator should too. */
  exposeStatus: boolean
  /** Fields a scenario cannot hold (a petId that is no int64, a shipDate that is no date-time), left out; and later duplicates of an id. */
  leftOut: string[]
}

const COMPLETE_RULE = 'complete: true is shipped, the rest pending'

/** One record of the list as a scenario order, keeping only the fields a scenario holds and can load. */
function orderOf(record: Record<string, unknown>, id: string, leftOut: string[]): ScenarioOrder {
  const order: ScenarioOrder = { id: int64Value(id) }
  const petId = int64Key(record['petId'])
  if (petId !== null) order.petId = int64Value(petId)
  else if (record['petId'] !== undefined) leftOut.push(`order ${id}: petId`)
  const quantity = record['quantity']
  if (typeof quantity === 'number' && Number.isSafeInteger(quantity)) order.quantity = quantity
  else if (quantity !== undefined) leftOut.push(`order ${id}: quantity`)
  const shipDate = record['shipDate']
  if (typeof shipDate === 'string' && isDateTime(shipDate)) order.shipDate = shipDate
  else if (shipDate !== undefined) leftOut.push(`order ${id}: shipDate`)
  if (typeof record['complete'] === 'boolean') order.complete = record['complete']
  else if (record['complete'] !== undefined) leftOut.push(`order ${id}: complete`)
  return order
}

/**
 * The list's orders for a scenario. The spec's Order has no status field
 * (section 2): a status the record carries (pending, shipped, cancelled) is
 * used, else `complete: true` is shipped and the rest pending. Throws a
 * one-line `Error` for an item that is not an order with an integer id.
 */
export function ordersFromList(items: readonly unknown[]): ListedOrders {
  const orders: ScenarioOrder[] = []
  const leftOut: string[] = []
  const seen = new Set<string>()
  let carried = 0
  for (const [index, item] of items.entries()) {
    if (!isPlainObject(item)) throw new Error(`item ${index} of the list is not an order object`)
    const id = int64Key(item['id'])
    if (id === null) throw new Error(`item ${index} of the list has no integer id (int64), which every scenario order needs`)
    // A scenario holds each id once; the list's first record of it is the one a client sees first.
    if (seen.has(id)) {
      leftOut.push(`a second order ${id}`)
      continue
    }
    seen.add(id)
    const own = ORDER_STATUSES.find((known) => known === item['status'])
    if (own !== undefined) carried++
    orders.push({ ...orderOf(item, id, leftOut), status: own ?? (item['complete'] === true ? 'shipped' : 'pending') })
  }
  const statusRule =
    orders.length === 0
      ? 'no orders'
      : carried === orders.length
        ? "each order's status as the service's records carry it"
        : carried === 0
          ? `status from complete, as the list has no status field (${COMPLETE_RULE})`
          : `the records' own status for ${carried} of ${orders.length} orders, else from complete (${COMPLETE_RULE})`
  return { orders, statusRule, exposeStatus: orders.length > 0 && carried === orders.length, leftOut }
}

/** The scenario's one-line description: `origin` ("Recorded from https://...") then what it holds and which status rule made it. */
export function describeOrders(origin: string, listed: ListedOrders, extra: readonly string[] = []): string {
  const count = `${listed.orders.length} order${listed.orders.length === 1 ? '' : 's'}`
  const parts = [`${count}; ${listed.statusRule}`, ...extra]
  if (listed.leftOut.length > 0)
    parts.push(
      `left out, as a scenario cannot hold them: ${listed.leftOut.slice(0, 5).join(', ')}${listed.leftOut.length > 5 ? ', ...' : ''}`,
    )
  return `${origin}: ${parts.join('; ')}.`
}
