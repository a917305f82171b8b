import { Collection, Query } from '@msw/data'
import * as v from 'valibot'
import type { Order, OrderStatus } from '../glossary.js'
import { int64Value, type Int64Key } from '../int64.js'

/**
 * The order model: the only place that knows its schema. Ids are canonical
 * decimal strings so that the whole int64 range compares exactly; absent
 * optional fields are `null`; `position` is where the order stands in the list.
 */
const orderSchema = v.object({
  id: v.string(),
  petId: v.nullable(v.string()),
  quantity: v.nullable(v.number()),
  shipDate: v.nullable(v.string()),
  complete: v.nullable(v.boolean()),
  status: v.picklist(['pending', 'shipped', 'cancelled'] satisfies OrderStatus[]),
  position: v.number(),
})

type StoredOrder = v.InferOutput<typeof orderSchema>

/** An order as stored. */
export type OrderRecord = Omit<StoredOrder, 'position'>

/** The orders as a change sees them: the model's, with nothing else changing meanwhile. */
interface OrderChange {
  find(id: Int64Key): OrderRecord | undefined
  setStatus(id: Int64Key, status: OrderStatus): Promise<void>
  remove(id: Int64Key): void
}

export interface OrderStore {
  /** Goes up by one with every change, so a reader can tell when what it built from the orders is stale. */
  version(): number
  /**
   * Replaces every order with `records`, in this order. Readers see them at
   * once; the promise settles once the model holds them too.
   */
  replaceAll(records: readonly OrderRecord[]): Promise<void>
  /** Every order, in list order. */
  all(): readonly OrderRecord[]
  find(id: Int64Key): OrderRecord | undefined
  /**
   * Runs `change` with no other change of this store in between, so that a
   * check and the change it decides on are one step: @msw/data 1.x updates
   * records asynchronously.
   */
  change<T>(change: (orders: OrderChange) => Promise<T>): Promise<T>
}

/** A copy made here, whatever realm `record` comes from (a Jest sandbox, a vm context, an iframe). */
function storedCopy(record: OrderRecord, position: number): StoredOrder {
  const { id, petId, quantity, shipDate, complete, status } = record
  return { id, petId, quantity, shipDate, complete, status, position }
}

/** Creates an empty, independent order store over its own @msw/data collection. */
export function createOrderStore(): OrderStore {
  // No sync() extension: each simulator (each browser tab) keeps its own orders.
  const orders = new Collection({ schema: orderSchema })
  /** A record as the collection holds it: our fields, plus its internal keys. */
  type ModelRecord = NonNullable<ReturnType<typeof orders.findFirst>>
  const byId = (id: Int64Key) => new Query<StoredOrder>((order) => order.id === id)
  let version = 0
  // Changes run one after another: `tail` settles when the last one has.
  let tail: Promise<unknown> = Promise.resolve()
  // What readers see while the model is being written: a replaceAll's orders, then a change's.
  let filling: readonly StoredOrder[] | null = null
  let changing: readonly StoredOrder[] | null = null
  let listed: { version: number; orders: readonly StoredOrder[] } = { version, orders: [] }

  function exclusive<T>(change: () => Promise<T>): Promise<T> {
    const run = tail.then(change)
    tail = run.catch(() => undefined)
    return run
  }

  /** The model's orders in list order; a replaced record sits at the end of the collection, so the sort is near-linear. */
  function modelOrders(): readonly StoredOrder[] {
    if (listed.version !== version) listed = { version, orders: [...orders.all()].sort((a, b) => a.position - b.position) }
    return listed.orders
  }

  const view = () => filling ?? changing ?? modelOrders()

  /**
   * Replaces one record by a new one made from plain values, not by
   * `Collection.update`: that drafts a `structuredClone` with mutative, which
   * refuses objects of another realm, and in a Jest sandbox `structuredClone`
   * is the host's. Readers see the new record at once, in its place.
   */
  async function replace(previous: ModelRecord, next: StoredOrder): Promise<void> {
    // Checked before anyone sees it: a record the model refuses is never shown, not even for a moment.
    v.parse(orderSchema, next)
    const after = (changing ?? modelOrders()).map((order) => (order.id === previous.id ? next : order))
    changing = after
    version++
    try {
      await orders.create(next)
      orders.delete(previous)
    } catch (error) {
      // What was built from the overlay (a list body, a sorted copy) is stale again.
      version++
      throw error
    } finally {
      if (changing === after) changing = null
    }
  }

  const committed: OrderChange = {
    find: (id) => orders.findFirst(byId(id)),
    async setStatus(id, status) {
      const previous = orders.findFirst(byId(id))
      if (previous !== undefined) await replace(previous, { ...storedCopy(previous, previous.position), status })
    },
    remove(id) {
      orders.delete(byId(id))
      version++
    },
  }

  return {
    version: () => version,
    replaceAll(records) {
      const stored = records.map((record, position) => storedCopy(record, position))
      version++
      filling = stored
      return exclusive(async () => {
        orders.clear()
        try {
          for (const record of stored) await orders.create(record)
        } finally {
          if (filling === stored) filling = null
        }
      })
    },
    all: view,
    find: (id) => (filling === null && changing === null ? committed.find(id) : view().find((order) => order.id === id)),
    change: (change) => exclusive(() => change(committed)),
  }
}

/** The public form of a stored order: absent fields left out, ids as numbers where exact. */
export function toOrder(record: OrderRecord): Order {
  const order: Order = { id: int64Value(record.id), status: record.status }
  if (record.petId !== null) order.petId = int64Value(record.petId)
  if (record.quantity !== null) order.quantity = record.quantity
  if (record.shipDate !== null) order.shipDate = record.shipDate
  if (record.complete !== null) order.complete = record.complete
  return order
}
