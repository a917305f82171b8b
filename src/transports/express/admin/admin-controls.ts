import type { Router } from 'express'
import { ApiError } from '../../../core/api-error.js'
import type { FaultInput } from '../../../core/controls/faults.js'
import type { LatencySettings } from '../../../core/controls/latency.js'
import type { RateLimit } from '../../../core/controls/rate-limit.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { sendError } from '../../node/node-edge.js'
import { action } from './admin-action.js'
import { readJson, sendJson } from './admin-json.js'

// Bodies are passed to the view as they came: it checks them as it checks any in-process input.

/** Misbehaviour on purpose over HTTP: faults, latency, rate limit. */
export function addControlRoutes(router: Router): void {
  router.get(
    '/faults',
    action((_req, res, view) => sendJson(res, 200, view.faults())),
  )
  router.post(
    '/faults',
    action((req, res, view) => sendJson(res, 201, view.addFault(readJson(req) as FaultInput))),
  )
  router.delete(
    '/faults',
    action((_req, res, view) => {
      view.clearFaults()
      res.status(204).end()
    }),
  )
  router.delete(
    '/faults/:id',
    action((req, res, view) => {
      if (view.removeFault(Number(req.params['id']))) res.status(204).end()
      else
        sendError(
          res,
          new ApiError(404, ErrorCode.NotFound, `No fault has the id ${JSON.stringify(req.params['id'])}; GET /__sim/faults lists them.`),
        )
    }),
  )
  router.get(
    '/latency',
    action((_req, res, view) => sendJson(res, 200, view.latency())),
  )
  router.put(
    '/latency',
    action((req, res, view) => {
      view.setLatency((readJson(req) ?? null) as LatencySettings | null)
      sendJson(res, 200, view.latency())
    }),
  )
  router.get(
    '/rate-limit',
    action((_req, res, view) => sendJson(res, 200, view.rateLimit())),
  )
  router.put(
    '/rate-limit',
    action((req, res, view) => {
      view.setRateLimit((readJson(req) ?? null) as RateLimit | null)
      sendJson(res, 200, view.rateLimit())
    }),
  )
}
