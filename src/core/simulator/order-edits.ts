import { ApiError, orderNotFound } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import type { Order, OrderStatus } from '../glossary.js'
import { expectOrderId, type Int64Key } from '../int64.js'
import { isDateTime } from '../scenario/date-time.js'
import { describe, quote } from '../quote-value.js'
import { isPlainObject } from '../scenario/plain-object.js'
import { ORDER_STATUSES } from '../glossary.js'
import { MAX_ORDERS } from '../scenario/scenario-limits.js'
import { type OrderRecord, toOrder } from '../state/order-store.js'
import { ValidationError } from '../validation-error.js'
import type { SimulatorInstance } from './instance.js'

const PATCH_FIELDS = ['status', 'petId', 'quantity', 'shipDate', 'complete'] as const
type PatchField = (typeof PATCH_FIELDS)[number]
const INT64_MAX = 2n ** 63n - 1n

/** Each field a patch or a new order may carry: what it takes, as a `ValidationError` naming it otherwise. */
const READ: { [F in PatchField]: (value: unknown) => OrderRecord[F] } = {
  status(value) {
    if (typeof value !== 'string' || !(ORDER_STATUSES as readonly string[]).includes(value))
      throw new ValidationError(
        'status',
        `status must be one of ${ORDER_STATUSES.map((status) => `"${status}"`).join(', ')}, got ${describe(value)}.`,
      )
    return value as OrderStatus
  },
  petId: (value) => expectOrderId(value, 'petId'),
  quantity(value) {
    if (typeof value !== 'number' || !Number.isSafeInteger(value))
      throw new ValidationError('quantity', `quantity must be an integer (or null to remove it), got ${describe(value)}.`)
    return value
  },
  shipDate(value) {
    if (typeof value !== 'string' || !isDateTime(value))
      throw new ValidationError(
        'shipDate',
        `shipDate must be an ISO 8601 date-time such as "2026-03-01T12:00:00Z" (or null to remove it), got ${describe(value)}.`,
      )
    return value
  },
  complete(value) {
    if (typeof value !== 'boolean')
      throw new ValidationError('complete', `complete must be true or false (or null to remove it), got ${describe(value)}.`)
    return value
  },
}

const fieldList = (what: 'patch' | 'order') => (what === 'order' ? ['id', ...PATCH_FIELDS] : PATCH_FIELDS).join(', ')

/** The order fields a patch or a new order sets, read once; `null` removes an optional one. */
type Changes = Partial<Omit<OrderRecord, 'id'>>

/**
 * A patch (or a new order, which may carry `id`), checked whole before
 * anything changes; a `ValidationError` names the first field at fault.
 */
function readChanges(value: unknown, what: 'patch' | 'order'): { id: Int64Key | null; changes: Changes } {
  if (!isPlainObject(value))
    throw new ValidationError(what, `The ${what} must be an object with any of ${fieldList(what)}, got ${describe(value)}.`)
  for (const key of Object.keys(value)) {
    if (what === 'patch' && key === 'id')
      throw new ValidationError('id', 'id cannot be changed: remove the order and add one with the new id.')
    if (!(PATCH_FIELDS as readonly string[]).includes(key) && !(what === 'order' && key === 'id'))
      throw new ValidationError(key, `Unknown field ${quote(key)}: the ${what} takes ${fieldList(what)}.`)
  }
  const id = value['id'] === undefined ? null : expectOrderId(value['id'], 'id')
  const changes: Changes = {}
  if (value['status'] === null) throw new ValidationError('status', `status cannot be removed: it is one of ${ORDER_STATUSES.join(', ')}.`)
  for (const field of PATCH_FIELDS) {
    const given = value[field]
    // Each field has its own type; the reader for the field gives the right one.
    if (given !== undefined) (changes as Record<PatchField, unknown>)[field] = given === null ? null : READ[field](given)
  }
  return { id, changes }
}

/**
 * Changes one order of `instance`, bypassing the API's rules on purpose (a
 * shipped order may go back to pending); the journal is not touched. An order
 * that becomes pending ships anew under the lifecycle; one that stops being
 * pending will not.
 */
export function updateOrder(instance: SimulatorInstance, id: unknown, patch: unknown): Promise<Order> {
  const key = expectOrderId(id)
  const { changes } = readChanges(patch, 'patch')
  return instance.store.change(async (orders) => {
    const order = orders.find(key)
    if (order === undefined) throw orderNotFound(key)
    const next = { ...order, ...changes }
    await orders.put([next])
    if (next.status !== 'pending') instance.lifecycle.unschedule(key)
    else if (order.status !== 'pending') instance.lifecycle.schedule(key)
    return toOrder(next)
  })
}

/** Adds an order at the end of the list; its id is the next free one when it has none. */
export function addOrder(instance: SimulatorInstance, order: unknown): Promise<Order> {
  const { id: givenId, changes } = readChanges(order, 'order')
  return instance.store.change(async (orders) => {
    if (orders.count() >= MAX_ORDERS)
      throw new ApiError(
        409,
        ErrorCode.TooManyOrders,
        `This state holds ${MAX_ORDERS} orders, the most it may; remove some or reset first.`,
      )
    let id = givenId
    if (id === null) {
      const largest = orders.largestId()
      if (largest === INT64_MAX) throw new ValidationError('id', `No id is free above the largest, ${INT64_MAX}: give the order an id.`)
      id = (largest === null ? 1n : largest + 1n).toString()
    } else if (orders.find(id) !== undefined) {
      throw new ApiError(409, ErrorCode.OrderExists, `Order ${id} already exists; change it with PATCH, or give another id.`)
    }
    const record: OrderRecord = { petId: null, quantity: null, shipDate: null, complete: null, status: 'pending', ...changes, id }
    await orders.add(record)
    if (record.status === 'pending') instance.lifecycle.schedule(id)
    return toOrder(record)
  })
}

/** Removes one order; the journal is not touched. */
export function removeOrder(instance: SimulatorInstance, id: unknown): Promise<void> {
  const key = expectOrderId(id)
  return instance.store.change(async (orders) => {
    if (orders.find(key) === undefined) throw orderNotFound(key)
    await orders.remove(key)
    instance.lifecycle.unschedule(key)
  })
}
