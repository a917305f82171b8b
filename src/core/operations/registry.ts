import { cancelOrder } from './cancel-order.js'
import { getPetById } from './get-pet-by-id.js'
import { listOrders } from './list-orders.js'

/**
 * The operations of the specification, in the order help texts list them.
 * Routing, `Prefer`, the control parsers, the msw handlers and every help
 * text are derived from this list: a new operation is one file, one entry
 * here and its entry in the OpenAPI document.
 */
export const OPERATIONS = [listOrders, cancelOrder, getPetById] as const

export type OperationId = (typeof OPERATIONS)[number]['id']

export const OPERATION_IDS: readonly OperationId[] = OPERATIONS.map((operation) => operation.id)

/** Every operation as `METHOD <base><path>`, joined for a sentence: "GET /v1/store/orders, ... and GET /v1/pets/{petId}". */
export function describeOperations(basePath: string): string {
  const each = OPERATIONS.map((operation) => `${operation.method} ${basePath}${operation.path}`)
  return `${each.slice(0, -1).join(', ')} and ${each.at(-1) ?? ''}`
}
