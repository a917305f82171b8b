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

/** One order of a state's own as a snapshot holds it: changed, added, or a tombstone (`removed`) of a base order. */
export type OwnOrderRecord = OrderRecord & { position: number; removed: boolean }

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
  /** Own orders a restore brought, readable at once, until the first write copies them into `own` (which wins over them). */
  overlay?: Map<Int64Key, StoredOrder>
  /** How many orders of its own `charge` was told of. */
  charged: number
  nextPosition: number
  version: number
}

/** The state's own orders by id; a change writes an order's new record before it deletes the old, so the last one wins. */
function ownOf(held: Held): Map<Int64Key, StoredOrder> {
  const own = new Map(held.overlay)
  for (const record of held.own?.all() ?? []) own.set(record.id, record)
  return own
}

function findIn(held: Held, id: Int64Key): OrderRecord | undefined {
  // From the end, for the same reason as ownOf.
  const mine = held.own?.findMany((query) => query.where((record) => record.id === id), { take: -1 })[0]
  const found = mine ?? held.overlay?.get(id)
  if (found !== undefined) return found.removed ? undefined : found
  const position = held.base.positionOf(id)
  return position === undefined ? undefined : held.base.records[position]
}

/** The base's orders with the state's own in their places, then the orders it added, in the order they were added. */
function listOf(held: Held): readonly OrderRecord[] {
  const { base } = held
  if ((held.own === undefined || held.own.count() === 0) && held.overlay === undefined) return base.records
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

/** `records` checked against `base`, as the overlay of a restore; a RangeError naming the first misfit otherwise. */
function overlayOf(base: BaseOrders<OrderRecord>, records: readonly OwnOrderRecord[], nextPosition: number): Map<Int64Key, StoredOrder> {
  const refuse = (why: string): never => {
    throw new RangeError(`The own orders do not fit the state: ${why}.`)
  }
  const size = base.records.length
  if (!Number.isSafeInteger(nextPosition) || nextPosition < size)
    refuse(`nextPosition ${nextPosition} is not a whole number of at least ${size}, the base's length`)
  const overlay = new Map<Int64Key, StoredOrder>()
  const added = new Set<number>()
  for (const record of records) {
    const { id, position } = record
    if (overlay.has(id)) refuse(`order ${id} is there twice`)
    if (!Number.isSafeInteger(position) || position < 0 || position >= nextPosition)
      refuse(`order ${id} stands at ${position}, outside 0 to ${nextPosition - 1}`)
    const inBase = base.positionOf(id)
    if (position < size) {
      // A changed or removed order keeps its place in the base.
      if (inBase !== position) refuse(`order ${id} stands at ${position}, where the base holds another order`)
    } else {
      if (record.removed) refuse(`order ${id} is removed but the base does not hold it`)
      if (added.has(position)) refuse(`two added orders stand at ${position}`)
      added.add(position)
    }
    // A copy of the model's fields, checked as a write checks them.
    overlay.set(id, v.parse(orderSchema, { ...record }))
  }
  return overlay
}

/** Only the model's fields, as plain data: a collection's record carries keys of its own. */
function ownRecordOf({ id, petId, quantity, shipDate, complete, status, position, removed }: StoredOrder): OwnOrderRecord {
  return { id, petId, quantity, shipDate, complete, status, position, removed }
}

/**
 * Writes a restore's orders into the collection (those a failed copy already wrote are skipped), so that a change
 * builds on them; false when the state was reset meanwhile.
 */
async function flushOverlay(state: Held, own: Collection<typeof orderSchema>, current: () => boolean): Promise<boolean> {
  if (state.overlay === undefined) return true
  const written = new Set(own.all().map((record) => record.id))
  for (const [id, record] of state.overlay) if (!written.has(id)) await own.create(record)
  if (!current()) return false
  state.overlay = undefined
  return true
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
    if (!(await flushOverlay(state, state.own, () => state === held))) return
    const own = new Map(state.own.all().map((record) => [record.id, record] as const))
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
    owned: (): number => (held.overlay === undefined ? (held.own?.count() ?? 0) : ownOf(held).size),
    /**
     * The state's own orders (changed, added, removed), each once, as its last write left it, and where the next
     * added order goes: what a snapshot keeps. Never reads the base, which a scenario may make 100,000 orders long.
     */
    ownRecords(): { records: OwnOrderRecord[]; nextPosition: number } {
      return { records: [...ownOf(held).values()].map(ownRecordOf), nextPosition: held.nextPosition }
    },
    /**
     * Puts back the own orders `ownRecords()` gave, right after `replaceAll` of the same base: readers see them at
     * once, and the collection receives them before any later change. Throws, changing nothing, when they do not fit
     * the base or `charge` refuses their bytes.
     */
    restoreOwn(records: readonly OwnOrderRecord[], nextPosition: number): void {
      const state = held
      if (state.overlay !== undefined || (state.own?.count() ?? 0) > 0)
        throw new RangeError('The own orders do not fit the state: the state has own orders already.')
      const overlay = overlayOf(state.base, records, nextPosition)
      if (records.length > 0) charge(records.length * OWN_ORDER_BYTES)
      state.charged += records.length
      state.nextPosition = nextPosition
      if (overlay.size > 0) state.overlay = overlay
      state.version++
      // The first step of the queue copies the overlay into the collection, so later changes write after it.
      if (overlay.size > 0)
        exclusive(() => writing(() => write(state, new Map()))).catch(() => {
          // Kept in the overlay (a page gone offline): the next change tries again.
        })
    },
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
