import { drop, factory, nullable, primaryKey } from '@mswjs/data'
import type { Order, OrderStatus } from './glossary.js'
import { int64Value, type Int64Key } from './int64.js'

/**
 * An order as stored: ids are canonical decimal strings so that the whole
 * int64 range compares exactly. Absent optional fields are `null`.
 */
export interface OrderRecord {
  id: Int64Key
  petId: Int64Key | null
  quantity: number | null
  shipDate: string | null
  complete: boolean | null
  status: OrderStatus
}

/**
 * Runs `create` with `BroadcastChannel` hidden. In a browser, @mswjs/data
 * mirrors every database into same-origin tabs over a BroadcastChannel, keyed
 * by an id that is the same in every tab; a reset in one tab would then
 * rewrite another tab's orders under that tab's scenario and keys. Each
 * simulator must stay independent, and factory() only looks for the channel
 * while it runs, synchronously.
 */
function withoutCrossTabSync<T>(create: () => T): T {
  const scope = globalThis as { BroadcastChannel?: unknown; window?: unknown }
  const channel = scope.BroadcastChannel
  if (scope.window === undefined || channel === undefined) return create()
  scope.BroadcastChannel = undefined
  try {
    return create()
  } finally {
    scope.BroadcastChannel = channel
  }
}

/** The @mswjs/data order model. This is the only place that knows its schema. */
function createOrderDb() {
  return withoutCrossTabSync(() => factory({
    order: {
      id: primaryKey(String),
      petId: nullable<string>(() => null),
      quantity: nullable<number>(() => null),
      shipDate: nullable<string>(() => null),
      complete: nullable<boolean>(() => null),
      status: String,
    },
  }))
}

export interface OrderStore {
  /** Goes up by one with every change, so a reader can tell when what it built from the orders is stale. */
  version(): number
  /** Replaces every order with `records`, in this order. */
  replaceAll(records: readonly OrderRecord[]): void
  /** Every order, in insertion order. */
  all(): OrderRecord[]
  find(id: Int64Key): OrderRecord | undefined
  setStatus(id: Int64Key, status: OrderStatus): void
  remove(id: Int64Key): void
}

type OrderEntity = Omit<OrderRecord, 'status'> & { status: string }

function toRecord(entity: OrderEntity): OrderRecord {
  // The store only ever receives statuses from checked scenarios and the cancel rule.
  return { id: entity.id, petId: entity.petId, quantity: entity.quantity, shipDate: entity.shipDate, complete: entity.complete, status: entity.status as OrderStatus }
}

/** Creates an empty, independent order store. */
export function createOrderStore(): OrderStore {
  const db = createOrderDb()
  const byId = (id: Int64Key) => ({ where: { id: { equals: id } } })
  let version = 0
  return {
    version: () => version,
    replaceAll(records) {
      version++
      drop(db)
      for (const record of records) {
        db.order.create({ ...record })
      }
    },
    all() {
      return db.order.getAll().map((entity) => toRecord(entity))
    },
    find(id) {
      const entity = db.order.findFirst(byId(id))
      return entity === null ? undefined : toRecord(entity)
    },
    setStatus(id, status) {
      version++
      db.order.update({ ...byId(id), data: { status } })
    },
    remove(id) {
      version++
      db.order.delete(byId(id))
    },
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
