import { ApiError, orderNotFound } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { parseInt64, type Int64Key } from '../int64.js'
import { asRequested, noContent, preferredUnauthorized, type OperationDefinition } from './operation.js'
import { quote } from '../quote-value.js'

export const invalidOrderId = (param: string) =>
  new ApiError(
    400,
    ErrorCode.InvalidOrderId,
    `Invalid order id ${quote(param)}: an order id is a decimal integer between -9223372036854775808 and 9223372036854775807.`,
  )
const alreadyShipped = (id: Int64Key | string) =>
  new ApiError(409, ErrorCode.OrderAlreadyShipped, `Order ${id} has already shipped and cannot be cancelled.`)
const notPending = (id: Int64Key, status: string) =>
  new ApiError(409, ErrorCode.OrderNotPending, `Order ${id} is ${status}; only a pending order can be cancelled.`)

/**
 * `DELETE /store/orders/{orderId}`, the cancel state machine: a pending
 * order is cancelled (204); a shipped one is refused (409); an unknown id
 * is 404; an id that is no int64 is 400.
 */
export const cancelOrder = {
  id: 'cancelOrder',
  method: 'DELETE',
  path: '/store/orders/{orderId}',
  statuses: [204, 400, 401, 404, 409],
  orderIdOf: parseInt64,
  answer({ param, orderId: id, state }) {
    if (id === null) throw invalidOrderId(param)
    // The check and the change as one step of the store: concurrent cancels of one order see exactly one 204.
    return state.store.change(async (orders) => {
      const order = orders.find(id)
      if (order === undefined) throw orderNotFound(id)
      if (order.status === 'shipped') throw alreadyShipped(id)
      if (order.status !== 'pending') throw notPending(id, order.status)
      if (state.settings().afterCancel === 'remove') await orders.remove(id)
      else await orders.put([{ ...order, status: 'cancelled' }])
      return noContent()
    })
  },
  preferred(status, { param }) {
    const id = parseInt64(param) ?? param
    switch (status) {
      case 204:
        return noContent()
      case 400:
        throw asRequested(invalidOrderId(param))
      case 401:
        throw preferredUnauthorized()
      case 404:
        throw asRequested(orderNotFound(id))
      default:
        throw asRequested(alreadyShipped(id))
    }
  },
} as const satisfies OperationDefinition<'cancelOrder'>
