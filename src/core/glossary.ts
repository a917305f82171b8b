/**
 * An int64 value as the simulator hands it to JavaScript: a `number` when the
 * value is exactly representable as one, a `bigint` otherwise
 * (for example 9223372036854775807).
 */
export type Int64 = number | bigint

/**
 * The order states the simulator knows. The specification names `pending`
 * and `shipped`; it does not name the state after cancellation, which the
 * simulator calls `cancelled`.
 */
export type OrderStatus = 'pending' | 'shipped' | 'cancelled'
/** Every order status, in the spec's order. */
export const ORDER_STATUSES: readonly OrderStatus[] = ['pending', 'shipped', 'cancelled']

/**
 * An order as the simulator holds it. On the wire only `id`, `petId`,
 * `quantity`, `shipDate` and `complete` are sent (plus `status` with the
 * `exposeStatus` option). The specification marks no property required, so a
 * scenario may leave any of the four optional ones out.
 */
export interface Order {
  id: Int64
  petId?: Int64
  quantity?: number
  /** ISO 8601 / RFC 3339 date-time. */
  shipDate?: string
  complete?: boolean
  status: OrderStatus
}

/** An order as a scenario writes it: like `Order`, but an order that does not say is pending. */

/** A change of one order (`updateOrder`, `PATCH /__sim/orders/{id}`): any of its fields; `null` removes an optional one. */
export interface OrderPatch {
  status?: OrderStatus
  petId?: Int64 | string | null
  quantity?: number | null
  shipDate?: string | null
  complete?: boolean | null
}

/** An order to add (`addOrder`, `POST /__sim/orders`): `id` is the next free one when left out, `status` pending. */
export interface NewOrder extends Omit<OrderPatch, 'status'> {
  id?: Int64 | string
  status?: OrderStatus
}

/** The specification's Error object: all three fields are required. */
export interface ErrorBody {
  code: string
  message: string
  /** Equal to the HTTP status of the response that carries the body. */
  status: number
}

/** What happens to an order once it is cancelled. */
export type AfterCancel = 'keep' | 'remove'

/** A JSON value, as a scenario may declare it for an opaque pet record. */
export type JsonValue = string | number | bigint | boolean | null | JsonValue[] | { [key: string]: JsonValue }

/**
 * Generates realistic orders with faker from a seed: the same seed always
 * gives the same orders.
 */
export interface OrderGenerator {
  /** How many orders: a fixed number, or a range picked from the seed. */
  count: number | { min: number; max: number }
  seed: number
  /**
   * Relative weights of each status, e.g. `{ "pending": 3, "shipped": 2 }`.
   * Statuses left out are never generated.
   */
  statuses: Partial<Record<OrderStatus, number>>
  /** The id of the first generated order; ids then count up by one. Default: one past the largest explicit id, or 1. */
  firstId?: Int64
  /** Ship dates are spread around this instant (default 2026-01-01T00:00:00.000Z) so output does not depend on the clock. */
  referenceDate?: string
}

/** The dates the deprecated pets operation announces. */
export interface DeprecationDates {
  /** When the operation was deprecated (RFC 9745 `Deprecation` header). */
  deprecatedAt: Date
  /** When the operation goes away (RFC 8594 `Sunset` header). */
  sunsetAt: Date
}
