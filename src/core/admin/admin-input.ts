// What handlers read of a request the same way: a body that must be an object, an order id, something to remove.
import { ApiError, invalidRequest } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { type Int64Key, parseInt64 } from '../int64.js'
import { invalidOrderId } from '../operations/cancel-order.js'
import { quote } from '../quote-value.js'
import type { ValidationError } from '../validation-error.js'

/** The body as a JSON object (none is `{}`). */
export function objectBody(body: unknown): Record<string, unknown> {
  const value = body ?? {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidRequest('The request body must be a JSON object.')
  return value as Record<string, unknown>
}

/** The path's order id as the API reads it: a 400 `invalid_order_id` when it is no int64, as a cancel answers. */
export function orderIdParam(params: Readonly<Record<string, string>>): Int64Key {
  const param = params['orderId'] ?? ''
  const id = parseInt64(param)
  if (id === null) throw invalidOrderId(param)
  return id
}

/** Nothing (a 204) when something was removed, else the 404 naming the id and where such things are listed. */
export function removedOr404(removed: boolean, what: 'fault' | 'session', id: unknown): void {
  if (!removed) throw new ApiError(404, ErrorCode.NotFound, `No ${what} has the id ${quote(id)}; GET /__sim/${what}s lists them.`)
}

/** The admin edge's mapping of a bad input (a session id, a control's value): a 400 naming it. */
export const failAdmin = (error: ValidationError): never => {
  throw invalidRequest(error.message)
}

/** Only these fields: a typo such as "overwite" must not save over nothing, silently. */
export function onlyFields(record: Readonly<Record<string, unknown>>, fields: readonly string[], what: string): void {
  const unknown = Object.keys(record).filter((key) => !fields.includes(key))
  if (unknown.length > 0)
    throw invalidRequest(
      `Unknown field ${unknown.map((key) => quote(key)).join(', ')}; ${what} takes ${fields.map((field) => `"${field}"`).join(', ')}.`,
    )
}
