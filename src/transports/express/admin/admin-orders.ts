import type { Request as ExpressRequest, Router } from 'express'
import { ApiError, orderNotFound } from '../../../core/api-error.js'
import { invalidOrderId } from '../../../core/operations/cancel-order.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { parseInt64, type Int64Key } from '../../../core/int64.js'
import type { NewOrder, OrderPatch } from '../../../core/glossary.js'
import { action } from './admin-action.js'
import { readJson, readJsonObject, sendJson } from './admin-json.js'
import { quote } from '../../../core/quote-value.js'

/** The path's order id as the API reads it: a 400 `invalid_order_id` when it is no int64, as a cancel answers. */
function orderIdOf(req: ExpressRequest): Int64Key {
  const param = String(req.params['orderId'] ?? '')
  const id = parseInt64(param)
  if (id === null) throw invalidOrderId(param)
  return id
}

// Bodies are passed to the view as they came: it checks them as it checks any in-process input.

/** Orders one at a time, and the simulated clock: live changes that bypass the API's rules and its journal. */
export function addOrderRoutes(router: Router): void {
  router.get(
    '/orders',
    action((_req, res, view) => sendJson(res, 200, view.orders())),
  )
  router.post(
    '/orders',
    action(async (req, res, view) => {
      const order = await view.addOrder(readJson(req) as NewOrder)
      res.location(`/__sim/orders/${order.id}`)
      sendJson(res, 201, order)
    }),
  )
  router.get(
    '/orders/:orderId',
    action((req, res, view) => {
      const id = orderIdOf(req)
      const order = view.order(id)
      if (order === undefined) throw orderNotFound(id)
      sendJson(res, 200, order)
    }),
  )
  router.patch(
    '/orders/:orderId',
    action(async (req, res, view) => sendJson(res, 200, await view.updateOrder(orderIdOf(req), readJson(req) as OrderPatch))),
  )
  router.delete(
    '/orders/:orderId',
    action(async (req, res, view) => {
      await view.removeOrder(orderIdOf(req))
      res.status(204).end()
    }),
  )
  router.get(
    '/clock',
    action((_req, res, view) => sendJson(res, 200, view.clock())),
  )
  router.post(
    '/clock',
    action(async (req, res, view) => {
      const body = readJsonObject(req)
      const unknown = Object.keys(body).find((key) => key !== 'advance')
      if (unknown !== undefined)
        throw new ApiError(400, ErrorCode.InvalidRequest, `Unknown field ${quote(unknown)}: send {"advance": "30s"}.`)
      if (body['advance'] === undefined) throw new ApiError(400, ErrorCode.InvalidRequest, 'advance is required: send {"advance": "30s"}.')
      sendJson(res, 200, await view.advanceClock(body['advance'] as string))
    }),
  )
}
