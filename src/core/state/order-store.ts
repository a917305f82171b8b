import { Collection, Query } from '@msw/data'
import * as v from 'valibot'
import type { Order, OrderStatus } from '../glossary.js'
import { int64Value, type Int64Key } from '../int64.js'

/**
 * The order model: the only place that knows its schema. Ids are canonical
 * decimal strings so that the whole int64 range compares exactly; absent
 * optional fields are `null`.
 */
const orderSchema = v.object({
  id: v.string(),
  petId: v.nullable(v.string()),
  quantity: v.nullable(v.number()),
  shipDate: v.nullable(v.string()),
  complete: v.nullable(v.boolean()),
  status: v.picklist(['pending', 'shipped', 'cancelled'] satisfies OrderStatus[]),
})

/** An order as stored. */
export type OrderRecord = v.InferOutput<typeof orderSchema>

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
  /** Every order, in insertion order. */
  all(): readonly OrderRecord[]
  find(id: Int64Key): OrderRecord | undefined
  /**
   * Runs `change` with no other change of this store in between, so that a
   * check and the change it decides on are one step: @msw/data 1.x updates
   * records asynchronously.
   */
  change<T>(change: (orders: OrderChange) => Promise<T>): Promise<T>
}

/** Creates an empty, independent order store over its own @msw/data collection. */
export function createOrderStore(): OrderStore {
  // No sync() extension: each simulator (each browser tab) keeps its own orders.
  const orders = new Collection({ schema: orderSchema })
  const byId = (id: Int64Key) => new Query<OrderRecord>((order) => order.id === id)
  let version = 0
  // Changes run one after another: `tail` settles when the last one has.
  let tail: Promise<unknown> = Promise.resolve()
  // What a replaceAll put in place while the collection is still being filled.
  let filling: readonly OrderRecord[] | null = null

  function exclusive<T>(change: () => Promise<T>): Promise<T> {
    const run = tail.then(change)
    tail = run.catch(() => undefined)
    return run
  }

  const committed: OrderChange = {
    find: (id) => orders.findFirst(byId(id)),
    async setStatus(id, status) {
      await orders.update(byId(id), {
        data(order) {
          order.status = status
        },
      })
      version++
    },
    remove(id) {
      orders.delete(byId(id))
      version++
    },
  }

  return {
    version: () => version,
    replaceAll(records) {
      version++
      filling = records
      return exclusive(async () => {
        orders.clear()
        try {
          // One at a time, so that the collection keeps the scenario's order.
          for (const record of records) await orders.create({ ...record })
        } finally {
          if (filling === records) filling = null
        }
      })
    },
    all: () => filling ?? orders.all(),
    find: (id) => (filling === null ? committed.find(id) : filling.find((order) => order.id === id)),
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
