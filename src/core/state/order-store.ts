import { Collection, Query } from '@msw/data'
import * as v from 'valibot'
import type { Order, OrderStatus } from '../glossary.js'
import { int64Value, parseInt64, type Int64Key } from '../int64.js'

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

/** The orders as a change sees them: the model's, with nothing else changing meanwhile. */
interface OrderChange {
  find(id: Int64Key): OrderRecord | undefined
  /** How many orders the model holds. */
  count(): number
  /** The largest id held, or null when there is none. */
  largestId(): bigint | null
  /** Writes new values of existing orders (matched by id), each keeping its place in the list. */
  put(records: readonly OrderRecord[]): Promise<void>
  setStatus(id: Int64Key, status: OrderStatus): Promise<void>
  /** Adds an order at the end of the list; its id must be free. */
  add(record: OrderRecord): Promise<void>
  remove(id: Int64Key): void
}

export interface OrderStore {
  /** Goes up by one with every change, so a reader can tell when what it built from the orders is stale. */
  version(): number
  /**
   * Replaces every order with `records`, in this order. Readers see them at
   * once, as given (records are never changed in place); the @msw/data model
   * takes copies of them with the next change.
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

/** Past this many record moves (changed × held), a change rebuilds the collection: each delete of @msw/data walks every record. */
const REBUILD_ABOVE = 20_000_000

function largestId(orders: readonly OrderRecord[]): bigint | null {
  let largest: bigint | null = null
  for (const order of orders) {
    const id = BigInt(order.id)
    if (largest === null || id > largest) largest = id
  }
  return largest
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

/** Whether the model's record holds exactly `order`, at `position`. */
function holds(record: StoredOrder, order: OrderRecord, position: number): boolean {
  return (
    record.position === position &&
    record.status === order.status &&
    record.petId === order.petId &&
    record.quantity === order.quantity &&
    record.shipDate === order.shipDate &&
    record.complete === order.complete
  )
}

/**
 * Makes `records` the model's only orders. After a reset, most orders are as
 * the model holds them (a test changed one or two): only the others are
 * written, since each create of @msw/data costs microseconds. Returns `records`.
 */
async function refill(orders: Collection<typeof orderSchema>, records: readonly OrderRecord[]): Promise<readonly OrderRecord[]> {
  const held = new Map(orders.all().map((record) => [record.id, record]))
  const missing: StoredOrder[] = []
  records.forEach((record, position) => {
    const now = held.get(record.id)
    if (now !== undefined && holds(now, record, position)) held.delete(record.id)
    else missing.push(storedCopy(record, position))
  })
  // Each delete walks every record: past a few, one clear and a create of each is cheaper.
  if (held.size > 8) {
    orders.clear()
    missing.splice(0, missing.length, ...records.map((record, position) => storedCopy(record, position)))
  } else for (const record of held.values()) orders.delete(record)
  // All at once: each create waits on its schema check, one after another they would wait in turn.
  await Promise.all(missing.map((record) => orders.create(record)))
  return records
}

/** Creates an empty, independent order store over its own @msw/data collection. */
export function createOrderStore(): OrderStore {
  // No sync() extension: each simulator (each browser tab) keeps its own orders.
  const orders = new Collection({ schema: orderSchema })
  const byId = (id: Int64Key) => new Query<StoredOrder>((order) => order.id === id)
  type ModelRecord = NonNullable<ReturnType<typeof orders.findFirst>> // our fields, plus the collection's keys
  let version = 0
  const exclusive = serial()
  // What readers see while the model is being written: a replaceAll's orders (as given), then a change's.
  let filling: readonly OrderRecord[] | null = null
  let changing: readonly StoredOrder[] | null = null
  let listed: { version: number; orders: readonly StoredOrder[] } = { version, orders: [] }

  /** The model's orders in list order; a replaced record sits at the end of the collection, so the sort is near-linear. */
  function modelOrders(): readonly StoredOrder[] {
    if (listed.version !== version) listed = { version, orders: [...orders.all()].sort((a, b) => a.position - b.position) }
    return listed.orders
  }

  const view = () => filling ?? changing ?? modelOrders()

  /**
   * Replaces records by new ones made from plain values, not by
   * `Collection.update`: that drafts a `structuredClone` with mutative, which
   * refuses objects of another realm, and in a Jest sandbox `structuredClone`
   * is the host's. Readers see the new records at once, in their places.
   */
  async function replace(previous: readonly ModelRecord[], next: readonly StoredOrder[]): Promise<void> {
    // Checked before anyone sees them: a record the model refuses is never shown, not even for a moment.
    for (const record of next) v.parse(orderSchema, record)
    const byNextId = new Map(next.map((record) => [record.id, record]))
    const after = (changing ?? modelOrders()).map((order) => byNextId.get(order.id) ?? order)
    await showing(after, async () => {
      if (next.length * orders.count() > REBUILD_ABOVE) {
        orders.clear()
        for (const record of after) await orders.create(record)
      } else {
        for (const record of next) await orders.create(record)
        for (const record of previous) orders.delete(record)
      }
    })
  }

  /** Readers see `after` while `write` brings the model there. */
  async function showing(after: readonly StoredOrder[], write: () => Promise<void>): Promise<void> {
    changing = after
    version++
    try {
      await write()
    } catch (error) {
      // What was built from the overlay (a list body, a sorted copy) is stale again.
      version++
      throw error
    } finally {
      if (changing === after) changing = null
    }
  }

  let nextPosition = 0
  const committed: OrderChange = {
    find: (id) => orders.findFirst(byId(id)),
    count: () => orders.count(),
    largestId: () => largestId(orders.all()),
    async put(records) {
      const given = new Map(records.map((record) => [record.id, record]))
      // One order (a cancel, an edit) is found without walking past it.
      const only = records.length === 1 ? orders.findFirst(byId(records[0]?.id ?? '')) : undefined
      const held = only === undefined ? orders.findMany(new Query<StoredOrder>((order) => given.has(order.id))) : [only]
      const next = held.map((order) => storedCopy(given.get(order.id) as OrderRecord, order.position))
      if (held.length > 0) await replace(held, next)
    },
    async setStatus(id, status) {
      const order = orders.findFirst(byId(id))
      if (order !== undefined) await committed.put([{ ...order, status }])
    },
    async add(record) {
      const stored = storedCopy(record, nextPosition++)
      v.parse(orderSchema, stored)
      await showing([...(changing ?? modelOrders()), stored], () => orders.create(stored).then(() => undefined))
    },
    remove(id) {
      orders.delete(byId(id))
      version++
    },
  }

  return {
    version: () => version,
    replaceAll(records) {
      nextPosition = records.length
      version++
      // As given: the model copies them on the next change (docs/performance.md: copies at start cost memory for good).
      filling = [...records]
      return Promise.resolve()
    },
    all: view,
    find: (id) => (filling === null && changing === null ? committed.find(id) : view().find((order) => order.id === id)),
    change: (change) =>
      exclusive(async () => {
        // The model takes the last replaceAll's orders first (readers see them meanwhile; a failure is tried again next time).
        while (filling !== null) if ((await refill(orders, filling)) === filling) filling = null
        return change(committed)
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
