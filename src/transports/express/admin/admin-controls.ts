import type { Router } from 'express'
import type { FaultInput } from '../../../core/controls/faults.js'
import type { LatencySettings } from '../../../core/controls/latency.js'
import type { RateLimit } from '../../../core/controls/rate-limit.js'
import type { SimulatorView } from '../../../core/simulator/types.js'
import { action, sendRemoved } from './admin-action.js'
import { readJson, sendJson } from './admin-json.js'

// Bodies are passed to the view as they came: it checks them as it checks any in-process input.

/** `GET` a setting, and `PUT` a new one (a body of `null`, or none, turns it off). */
function settingRoutes(
  router: Router,
  path: string,
  read: (view: SimulatorView) => unknown,
  write: (view: SimulatorView, value: unknown) => void,
  example: string,
): void {
  router.get(
    path,
    action((_req, res, view) => sendJson(res, 200, read(view))),
  )
  router.put(
    path,
    action((req, res, view) => {
      write(view, readJson(req, example) ?? null)
      sendJson(res, 200, read(view))
    }),
  )
}

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
    action((req, res, view) => sendRemoved(res, view.removeFault(Number(req.params['id'])), 'fault', req.params['id'])),
  )
  settingRoutes(
    router,
    '/latency',
    (view) => view.latency(),
    (view, value) => view.setLatency(value as LatencySettings | null),
    'Send JSON such as "50-400" (a string, quotes included), 50, {"min": 50, "max": 400}, or null to turn latency off.',
  )
  settingRoutes(
    router,
    '/rate-limit',
    (view) => view.rateLimit(),
    (view, value) => view.setRateLimit(value as RateLimit | null),
    'Send JSON such as "100/60s" (a string, quotes included), {"limit": 100, "windowSeconds": 60}, or null to turn it off.',
  )
}
