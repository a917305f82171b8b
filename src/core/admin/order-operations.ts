// Orders one at a time, and the simulated clock: live changes that bypass the API's rules and its journal.
import { ApiError, orderNotFound } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import type { Duration as ClockDuration } from '../lifecycle/duration.js'
import type { NewOrder as NewOrderInput, Order, OrderPatch as OrderPatchInput } from '../glossary.js'
import { quote } from '../quote-value.js'
import { objectBody, orderIdParam } from './admin-input.js'
import { operation } from './admin-operation.js'

// Bodies are passed to the view as they came: it checks them as it checks any in-process input.
const BODY_400 =
  'the body is not a JSON object, names an unknown field or gives a wrong value; the message names the field and what it takes'

export const ORDER_OPERATIONS = {
  listAdminOrders: operation({
    method: 'GET',
    path: '/orders',
    tag: 'orders',
    summary: 'Every order, status included, in list order',
    status: 200,
    answer: { description: 'The orders.', schema: 'AdminOrder[]' },
    run: ({ view }) => view.orders(),
  }),
  addOrder: operation({
    method: 'POST',
    path: '/orders',
    tag: 'orders',
    summary: 'Add an order',
    description: 'Without an id the order gets the next free one (one past the largest); without a status it is pending.',
    body: { schema: 'NewOrder', required: true },
    status: 201,
    answer: {
      description: 'The order as added.',
      schema: 'AdminOrder',
      headers: { Location: { description: 'Where the order can be read: /__sim/orders/{id}.', pattern: '^/__sim/orders/-?[0-9]+$' } },
    },
    errors: {
      400: `invalid_request: ${BODY_400}.`,
      409: 'order_exists (an order has that id) or too_many_orders (the state already holds 100,000 orders).',
    },
    run: ({ view, body }) => view.addOrder(body as NewOrderInput),
    headers: (order: Order) => ({ Location: `/__sim/orders/${order.id}` }),
  }),
  getAdminOrder: operation({
    method: 'GET',
    path: '/orders/{orderId}',
    tag: 'orders',
    summary: 'One order, status included',
    params: { orderId: 'OrderId' },
    status: 200,
    answer: { description: 'The order.', schema: 'AdminOrder' },
    errors: { 400: 'InvalidOrderId', 404: 'OrderNotFound' },
    run: ({ view, params }) => {
      const id = orderIdParam(params)
      const order = view.order(id)
      if (order === undefined) throw orderNotFound(id)
      return order
    },
  }),
  updateOrder: operation({
    method: 'PATCH',
    path: '/orders/{orderId}',
    tag: 'orders',
    summary: 'Change an order',
    description: "Bypasses the API's rules: a shipped order can be set back to pending. null removes an optional field.",
    params: { orderId: 'OrderId' },
    body: { schema: 'OrderPatch', required: true },
    status: 200,
    answer: { description: 'The order after the change.', schema: 'AdminOrder' },
    errors: { 400: `invalid_order_id (the path id is not an int64) or invalid_request (${BODY_400}).`, 404: 'OrderNotFound' },
    run: ({ view, params, body }) => view.updateOrder(orderIdParam(params), body as OrderPatchInput),
  }),
  removeOrder: operation({
    method: 'DELETE',
    path: '/orders/{orderId}',
    tag: 'orders',
    summary: 'Remove an order',
    params: { orderId: 'OrderId' },
    status: 204,
    answer: { description: 'The order is gone.' },
    errors: { 400: 'InvalidOrderId', 404: 'OrderNotFound' },
    run: ({ view, params }) => view.removeOrder(orderIdParam(params)),
  }),
  getClock: operation({
    method: 'GET',
    path: '/clock',
    tag: 'clock',
    summary: 'The simulated clock and the transitions to come',
    status: 200,
    answer: { description: 'The clock.', schema: 'Clock' },
    run: ({ view }) => view.clock(),
  }),
  advanceClock: operation({
    method: 'POST',
    path: '/clock',
    tag: 'clock',
    summary: 'Advance the simulated clock',
    description: 'Every lifecycle transition that falls due is applied before the answer.',
    body: { schema: 'ClockAdvance', required: true },
    status: 200,
    answer: { description: 'The clock after the transitions that fell due were applied.', schema: 'Clock' },
    errors: { 400: 'invalid_request naming advance (not a duration from 0 to 24 h), or a body that is not a JSON object.' },
    run: ({ view, body }) => {
      const fields = objectBody(body)
      const unknown = Object.keys(fields).find((key) => key !== 'advance')
      if (unknown !== undefined)
        throw new ApiError(400, ErrorCode.InvalidRequest, `Unknown field ${quote(unknown)}: send {"advance": "30s"}.`)
      if (fields['advance'] === undefined)
        throw new ApiError(400, ErrorCode.InvalidRequest, 'advance is required: send {"advance": "30s"}.')
      return view.advanceClock(fields['advance'] as ClockDuration)
    },
  }),
}
