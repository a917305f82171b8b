import * as v from 'valibot'
import type { Order, OrderStatus } from '../glossary.js'
import { int64Value, parseInt64, type Int64Key } from '../int64.js'
import { type BaseOrders, createBaseOrders, largestIdOf } from './base-orders.js'
import type { OrderModel } from './order-model.js'

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

const recordsSchema = v.array(v.omit(orderSchema, ['position']))

/** Orders as stored, read back from a copy kept elsewhere (a tab's sessionStorage); undefined when it is not exactly that. */
export function parseOrderRecords(input: unknown): OrderRecord[] | undefined {
  const parsed = v.safeParse(recordsSchema, input)
  if (!parsed.success) return undefined
  const records = parsed.output
  const canonical = (id: string | null) => id === null || parseInt64(id) === id
  const ids = new Set(records.map((record) => record.id))
  return ids.size === records.length && records.every((record) => canonical(record.id) && canonical(record.petId)) ? records : undefined
}

/** The orders as a change sees them: the state's, with nothing else changing meanwhile. */
interface OrderChange {
  find(id: Int64Key): OrderRecord | undefined
  /** How many orders the state holds. */
  count(): number
  /** The largest id held, or null when there is none. */
  largestId(): bigint | null
  /** Writes new values of existing orders (matched by id), each keeping its place in the list. */
  put(records: readonly OrderRecord[]): Promise<void>
  setStatus(id: Int64Key, status: OrderStatus): Promise<void>
  /** Adds an order at the end of the list; its id must be free. */
  add(record: OrderRecord): Promise<void>
  remove(id: Int64Key): Promise<void>
}

export interface OrderStore {
  /** Goes up by one with every change, so a reader can tell when what it built from the orders is stale. */
  version(): number
  /**
   * Makes `records` the orders, in this order: readers see them at once.
   * Nothing is copied per state: states reset to the same records share
   * them (see `BaseOrders`), and each keeps only what it changes.
   */
  replaceAll(records: readonly OrderRecord[]): Promise<void>
  /** Every order, in list order. */
  all(): readonly OrderRecord[]
  find(id: Int64Key): OrderRecord | undefined
  /** How many orders this state holds of its own: changed, added or removed since the last `replaceAll`. */
  owned(): number
  /**
   * Runs `change` with no other change of this store in between, so that a
   * check and the change it decides on are one step: @msw/data 1.x updates
   * records asynchronously.
   */
  change<T>(change: (orders: OrderChange) => Promise<T>): Promise<T>
}

/** What one order of a state's own (changed or added) costs, measured: about 1 KB with the model's keys and the index. */
export const OWN_ORDER_BYTES = 1024

export interface OrderStoreOptions {
  /** The shared form of a reset's records (by default a copy per reset): a simulator shares one per scenario. */
  base?: (records: readonly OrderRecord[]) => BaseOrders<OrderRecord>
  /**
   * Told of the bytes the orders this state holds of its own take (above 0,
   * before they grow: throwing refuses the change, and nothing is shown) and give back (below 0).
   */
  charge?: (bytes: number) => void
}

/** A copy made here, whatever realm `record` comes from (a Jest sandbox, a vm context, an iframe). */
function storedCopy(record: OrderRecord, position: number): StoredOrder {
  const { id, petId, quantity, shipDate, complete, status } = record
  return { id, petId, quantity, shipDate, complete, status, position }
}

/** Past this many record moves (changed × held), a change rebuilds the model: each delete of @msw/data walks every record. */
const REBUILD_ABOVE = 20_000_000

/** Runs changes one after another: `tail` settles when the last one has. */
function serial(): <T>(change: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve()
  return (change) => {
    const run = tail.then(change)
    tail = run.catch(() => undefined)
    return run
  }
}

/** What a change makes of one order of its own: a new value, `null` (an order of the base removed) or `undefined` (back to none). */
type Own = StoredOrder | null | undefined

/** The orders of one state: the last reset's, shared, and its own by id over them. */
interface Held {
  base: BaseOrders<OrderRecord>
  own: Map<Int64Key, StoredOrder | null>
  count: number
  nextPosition: number
  version: number
  listed: { version: number; orders: readonly OrderRecord[] }
}

function findIn(held: Held, id: Int64Key): OrderRecord | undefined {
  const mine = held.own.get(id)
  if (mine !== undefined) return mine ?? undefined
  const position = held.base.positionOf(id)
  return position === undefined ? undefined : held.base.records[position]
}

/** The base's orders with the state's own in their places, then the orders it added, in the order they were added. */
function listOf(held: Held): readonly OrderRecord[] {
  const { base, own } = held
  if (own.size === 0) return base.records
  if (held.listed.version === held.version) return held.listed.orders
  const baseLength = base.records.length
  const orders: OrderRecord[] = []
  for (const record of base.records) {
    const mine = own.get(record.id)
    if (mine === undefined) orders.push(record)
    else if (mine !== null && mine.position < baseLength) orders.push(mine)
  }
  const added: StoredOrder[] = []
  for (const mine of own.values()) if (mine !== null && mine.position >= baseLength) added.push(mine)
  added.sort((a, b) => a.position - b.position)
  for (const mine of added) orders.push(mine)
  held.listed = { version: held.version, orders }
  return orders
}

/** Sets the entries as readers see them, keeping the count, at a new version; returns what they were. */
function show(held: Held, entries: ReadonlyMap<Int64Key, Own>): Map<Int64Key, Own> {
  const previous = new Map<Int64Key, Own>()
  for (const [id, next] of entries) {
    previous.set(id, held.own.get(id))
    held.count += (next == null ? 0 : 1) - (findIn(held, id) === undefined ? 0 : 1)
    if (next === undefined) held.own.delete(id)
    else held.own.set(id, next)
  }
  held.version++
  return previous
}

/**
 * The @msw/data collection of a state's own orders (order-model.ts), made on the state's first
 * change: readers never read it, and a state that changes no order never loads its code.
 */
function createModel() {
  let model: Promise<OrderModel<StoredOrder>> | undefined
  return {
    async store(entries: ReadonlyMap<Int64Key, Own>, own: ReadonlyMap<Int64Key, StoredOrder | null>): Promise<void> {
      // A load that failed (a page gone offline) is tried again by the next change.
      model ??= import('./order-model.js').then(
        (loaded) => loaded.createModel(orderSchema, REBUILD_ABOVE),
        (error: unknown) => {
          model = undefined
          throw error
        },
      )
      await (await model).store(entries, own)
    },
    async clear(): Promise<void> {
      // None made yet: nothing to clear, and nothing to load.
      if (model !== undefined) (await model).clear()
    },
  }
}

/** A change's view of the orders; `write` applies what it decides. */
function changeOf(held: Held, write: (entries: ReadonlyMap<Int64Key, Own>) => Promise<void>): OrderChange {
  const one = (id: Int64Key, next: Own) => write(new Map([[id, next]]))
  const orders: OrderChange = {
    find: (id) => findIn(held, id),
    count: () => held.count,
    largestId() {
      // An order of the base removed may have been the largest: then every order held is read.
      let removed = false
      let largest = held.base.largestId()
      for (const mine of held.own.values()) {
        if (mine === null) removed = true
        else if (largest === null || BigInt(mine.id) > largest) largest = BigInt(mine.id)
      }
      return removed ? largestIdOf(listOf(held)) : largest
    },
    async put(records) {
      const entries = new Map<Int64Key, Own>()
      for (const record of records) {
        const mine = held.own.get(record.id)
        const position = mine == null ? held.base.positionOf(record.id) : mine.position
        if (position !== undefined && findIn(held, record.id) !== undefined) entries.set(record.id, storedCopy(record, position))
      }
      await write(entries)
    },
    async setStatus(id, status) {
      const order = findIn(held, id)
      if (order !== undefined) await orders.put([{ ...order, status }])
    },
    add: (record) => one(record.id, storedCopy(record, held.nextPosition++)),
    remove: (id) => one(id, held.base.positionOf(id) === undefined ? undefined : null),
  }
  return orders
}

/**
 * Creates an empty, independent order store. The orders of the last reset
 * are shared (`BaseOrders`); the @msw/data collection, this store's model,
 * holds the orders this state changed or added. Readers see a change at
 * once, through `own`, while the model's asynchronous write completes.
 */
export function createOrderStore(options: OrderStoreOptions = {}): OrderStore {
  const baseOf = options.base ?? createBaseOrders
  const charge = options.charge ?? (() => undefined)
  const model = createModel()
  let held: Held = {
    base: createBaseOrders([]),
    own: new Map(),
    count: 0,
    nextPosition: 0,
    version: 0,
    listed: { version: -1, orders: [] },
  }
  const exclusive = serial()

  /**
   * Shows `entries` to readers at once, then writes them to the model. A
   * value the model's schema refuses is never shown; a write that fails puts
   * back what readers saw before, at a new version.
   */
  async function write(state: Held, entries: ReadonlyMap<Int64Key, Own>): Promise<void> {
    // A reset came in between: this change's state is gone.
    if (state !== held || entries.size === 0) return
    for (const next of entries.values()) if (next != null) v.parse(orderSchema, next)
    let grown = 0
    for (const [id, next] of entries) grown += (next === undefined ? 0 : 1) - (state.own.has(id) ? 1 : 0)
    const bytes = grown * OWN_ORDER_BYTES
    if (bytes > 0) charge(bytes)
    const previous = show(state, entries)
    if (bytes < 0) charge(bytes)
    try {
      await model.store(entries, state.own)
    } catch (error) {
      if (state === held) {
        show(state, previous)
        charge(-bytes)
        // The model may hold part of the change: make it match what readers see again.
        await model.store(previous, state.own).catch(() => undefined)
      }
      throw error
    }
  }

  return {
    version: () => held.version,
    replaceAll(records) {
      const released = held.own.size
      const base = baseOf(records)
      // A new state object: a change still running from before writes nothing more.
      held = {
        base,
        own: new Map(),
        count: base.records.length,
        nextPosition: base.records.length,
        version: held.version + 1,
        listed: held.listed,
      }
      if (released > 0) charge(-released * OWN_ORDER_BYTES)
      // After any write still running, whose records it clears too.
      return exclusive(() => model.clear())
    },
    all: () => listOf(held),
    find: (id) => findIn(held, id),
    owned: () => held.own.size,
    change: (change) =>
      exclusive(() => {
        const state = held
        return change(changeOf(state, (entries) => write(state, entries)))
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
