import * as v from 'valibot'
import type { Order, OrderStatus } from '../glossary.js'
import { int64Value, parseInt64, type Int64Key } from '../int64.js'
import { type BaseOrders, createBaseOrders, largestIdOf } from './base-orders.js'
import type { Collection } from './order-model.js'

/**
 * The order model: the only place that knows its schema. Ids are canonical
 * decimal strings so that the whole int64 range compares exactly; absent
 * optional fields are `null`; `position` is where the order stands in the list;
 * `removed` marks a base order a state removed, so that reads never fall back to it.
 */
const orderSchema = v.object({
  id: v.string(),
  petId: v.nullable(v.string()),
  quantity: v.nullable(v.number()),
  shipDate: v.nullable(v.string()),
  complete: v.nullable(v.boolean()),
  status: v.picklist(['pending', 'shipped', 'cancelled'] satisfies OrderStatus[]),
  position: v.number(),
  removed: v.boolean(),
})

type StoredOrder = v.InferOutput<typeof orderSchema>

/** An order as stored. */
export type OrderRecord = Omit<StoredOrder, 'position' | 'removed'>

const recordsSchema = v.array(v.omit(orderSchema, ['position', 'removed']))

/** Orders as stored, read back from a copy kept elsewhere (a tab's sessionStorage); undefined when it is not exactly that. */
export function parseOrderRecords(input: unknown): OrderRecord[] | undefined {
  const parsed = v.safeParse(recordsSchema, input)
  if (!parsed.success) return undefined
  const records = parsed.output
  const canonical = (id: string | null) => id === null || parseInt64(id) === id
  const ids = new Set(records.map((record) => record.id))
  return ids.size === records.length && records.every((record) => canonical(record.id) && canonical(record.petId)) ? records : undefined
}

/** What one order of a state's own (changed or added) costs, measured: about 1 KB with the model's keys and the index. */
export const OWN_ORDER_BYTES = 1024

export interface OrderStoreOptions {
  /** The shared form of a reset's records (by default a copy per reset): a simulator shares one per scenario. */
  base?: (records: readonly OrderRecord[]) => BaseOrders<OrderRecord>
  /** Told of the bytes its own orders take, before they grow (throwing refuses the change), and give back (below 0). */
  charge?: (bytes: number) => void
}

/** Runs changes one after another: `tail` settles when the last one has. */
function serial(): <T>(change: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve()
  return (change) => {
    const run = tail.then(change)
    tail = run.catch(() => undefined)
    return run
  }
}

/** The orders of one state: the last reset's, shared, and its own in an @msw/data collection made on its first change. */
interface Held {
  base: BaseOrders<OrderRecord>
  own?: Collection<typeof orderSchema>
  /** How many orders of its own `charge` was told of. */
  charged: number
  nextPosition: number
  version: number
}

/** The state's own orders by id; a change writes an order's new record before it deletes the old, so the last one wins. */
function ownOf(held: Held) {
  return new Map(held.own?.all().map((record) => [record.id, record] as const))
}

function findIn(held: Held, id: Int64Key): OrderRecord | undefined {
  // From the end, for the same reason as ownOf.
  const mine = held.own?.findMany((query) => query.where((record) => record.id === id), { take: -1 })[0]
  if (mine !== undefined) return mine.removed ? undefined : mine
  const position = held.base.positionOf(id)
  return position === undefined ? undefined : held.base.records[position]
}

/** The base's orders with the state's own in their places, then the orders it added, in the order they were added. */
function listOf(held: Held): readonly OrderRecord[] {
  const { base } = held
  if (held.own === undefined || held.own.count() === 0) return base.records
  const own = ownOf(held)
  const orders: OrderRecord[] = []
  for (const record of base.records) {
    const mine = own.get(record.id)
    if (mine === undefined) orders.push(record)
    else if (!mine.removed && mine.position < base.records.length) orders.push(mine)
  }
  const added = [...own.values()].filter((mine) => !mine.removed && mine.position >= base.records.length)
  return orders.concat(added.sort((a, b) => a.position - b.position))
}

/** The orders as a change sees them, the state's with nothing else changing meanwhile; `write` applies what it decides. */
function changeOf(held: Held, write: (entries: ReadonlyMap<Int64Key, StoredOrder | undefined>) => Promise<void>) {
  // Parsed before anything is written (a copy made here, whatever realm `record` comes from): a record refused changes nothing.
  const stored = (record: OrderRecord, position: number, removed = false) => v.parse(orderSchema, { ...record, position, removed })
  /** Writes new values of existing orders (matched by id), each keeping its place in the list. */
  async function put(records: readonly OrderRecord[]): Promise<void> {
    const own = ownOf(held)
    const entries = new Map<Int64Key, StoredOrder>()
    for (const record of records) {
      const mine = own.get(record.id)
      const position = mine === undefined ? held.base.positionOf(record.id) : mine.removed ? undefined : mine.position
      if (position !== undefined) entries.set(record.id, stored(record, position))
    }
    await write(entries)
  }
  return {
    find: (id: Int64Key) => findIn(held, id),
    /** How many orders the state holds. */
    count(): number {
      let count = held.base.records.length
      for (const mine of ownOf(held).values()) count += (mine.removed ? 0 : 1) - (held.base.positionOf(mine.id) === undefined ? 0 : 1)
      return count
    },
    /** The largest id held, or null when there is none. */
    largestId(): bigint | null {
      // An order of the base removed may have been the largest: then every order held is read.
      let removed = false
      let largest = held.base.largestId()
      for (const mine of ownOf(held).values()) {
        if (mine.removed) removed = true
        else if (largest === null || BigInt(mine.id) > largest) largest = BigInt(mine.id)
      }
      return removed ? largestIdOf(listOf(held)) : largest
    },
    put,
    async setStatus(id: Int64Key, status: OrderStatus): Promise<void> {
      const order = findIn(held, id)
      if (order !== undefined) await put([{ ...order, status }])
    },
    /** Adds an order at the end of the list; its id must be free. */
    add: (record: OrderRecord) => write(new Map([[record.id, stored(record, held.nextPosition++)]])),
    async remove(id: Int64Key): Promise<void> {
      const order = findIn(held, id)
      const position = held.base.positionOf(id)
      // An order of the base leaves a tombstone, so that reads never fall back to it; one the state added leaves nothing.
      if (order !== undefined) await write(new Map([[id, position === undefined ? undefined : stored(order, position, true)]]))
    },
  }
}

export type OrderStore = ReturnType<typeof createOrderStore>

/**
 * Creates an empty, independent order store. The orders of the last reset
 * are shared (`BaseOrders`); the @msw/data collection holds the orders this
 * state changed, added or removed, and every read of them reads it.
 */
export function createOrderStore(options: OrderStoreOptions = {}) {
  const baseOf = options.base ?? createBaseOrders
  const charge = options.charge ?? (() => undefined)
  let model: Promise<typeof import('./order-model.js')> | undefined
  let held: Held = { base: createBaseOrders([]), charged: 0, nextPosition: 0, version: 0 }
  const exclusive = serial()
  // One write at a time, even of one change: each reads the collection before it writes.
  const writing = serial()

  /** Charges for what `entries` add, then writes them one order at a time, each at a new version. */
  async function write(state: Held, entries: ReadonlyMap<Int64Key, StoredOrder | undefined>): Promise<void> {
    // A load that failed (a page gone offline) is tried again by the next change.
    model ??= import('./order-model.js').catch((error: unknown) => {
      model = undefined
      throw error
    })
    const { Collection } = await model
    // A reset came in between: this change's state is gone.
    if (state !== held) return
    state.own ??= new Collection({ schema: orderSchema })
    const own = ownOf(state)
    let grown = 0
    for (const [id, next] of entries) grown += (next === undefined ? 0 : 1) - (own.has(id) ? 1 : 0)
    if (grown > 0) charge(grown * OWN_ORDER_BYTES)
    state.charged += Math.max(grown, 0)
    try {
      for (const [id, next] of entries) {
        if (state !== held) return
        if (next !== undefined) await state.own.create(next)
        const old = own.get(id)
        if (old !== undefined) state.own.delete(old)
        state.version++
      }
    } finally {
      // Orders given up, or not written (a write that failed): charged no more. A reset released them all.
      const released = state === held ? state.charged - state.own.count() : 0
      if (released > 0) charge(-released * OWN_ORDER_BYTES)
      state.charged -= released
    }
  }

  return {
    /** Goes up by one with every change, so a reader can tell when what it built from the orders is stale. */
    version: () => held.version,
    /**
     * Makes `records` the orders, in this order: readers see them at once. Nothing is copied per state:
     * states reset to the same records share them (`BaseOrders`), and each keeps only what it changes.
     */
    replaceAll(records: readonly OrderRecord[]): Promise<void> {
      const released = held.charged
      const base = baseOf(records)
      // A new state object: a change still running from before writes nothing more.
      held = { base, charged: 0, nextPosition: base.records.length, version: held.version + 1 }
      if (released > 0) charge(-released * OWN_ORDER_BYTES)
      // Settles once a change still running has.
      return exclusive(async () => undefined)
    },
    /** Every order, in list order. */
    all: (): readonly OrderRecord[] => listOf(held),
    find: (id: Int64Key): OrderRecord | undefined => findIn(held, id),
    /** How many orders this state holds of its own: changed, added or removed since the last `replaceAll`. */
    owned: (): number => held.own?.count() ?? 0,
    /**
     * Runs `change` with no other change of this store in between, so that a check and the
     * change it decides on are one step: @msw/data 1.x writes records asynchronously.
     */
    change: <T>(change: (orders: ReturnType<typeof changeOf>) => Promise<T>): Promise<T> =>
      exclusive(() => {
        const state = held
        return change(changeOf(state, (entries) => writing(() => write(state, entries))))
      }),
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
