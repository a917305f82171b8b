import type { RequestHandler } from 'express'
import { ApiError } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { OPERATION_IDS } from '../../../core/operations/registry.js'
import { sendError } from '../../node/node-edge.js'

/** What `GET /__sim` lists. */
export const ADMIN_ENDPOINTS: readonly string[] = [
  "GET /__sim/scenarios (built-in, the startup file, and the scenarios folder's files with their errors)",
  'POST /__sim/scenarios {"name", "description"?, "overwrite"?} (saves this state as <name>.json in the scenarios folder)',
  'GET /__sim/scenarios/:name (a scenario as its file)',
  'GET /__sim/export?name=&description= (this state as a scenario file, not saved)',
  'POST /__sim/reset {"scenario"?: name, "seed"?: number}',
  'GET /__sim/state',
  'GET /__sim/orders, GET /__sim/orders/:orderId',
  'POST /__sim/orders {"id"?, "petId"?, "quantity"?, "shipDate"?, "complete"?, "status"?}',
  'PATCH /__sim/orders/:orderId {"status"?, "petId"?, "quantity"?, "shipDate"?, "complete"?} (null removes a field)',
  'DELETE /__sim/orders/:orderId',
  'GET /__sim/clock, POST /__sim/clock {"advance": "30s"}',
  'GET /__sim/requests',
  'DELETE /__sim/requests',
  'GET /__sim/faults',
  'POST /__sim/faults {"operation", "kind", "status"?, "orderId"?, "times"?, "probability"?, ...}',
  'DELETE /__sim/faults (all) or /__sim/faults/:id',
  `GET, PUT /__sim/latency 50 | "50-400" | {"default"?, ${OPERATION_IDS.map((id) => `"${id}"?`).join(', ')}} | null`,
  'GET, PUT /__sim/rate-limit "100/60s" | {"limit", "windowSeconds"} | null',
  'GET /__sim/pact?consumer=<name>&provider=<name> (the requests answered so far as a Pact v4 contract)',
  'POST /__sim/provider-states {"state", "params"?, "action"?: "setup" | "teardown"} (Pact\'s state change)',
  'GET /__sim/sessions, DELETE /__sim/sessions/:id (send X-Sim-Session with any call to act on that session)',
  'GET /__sim/events (server-sent events of the state, new requests, controls and sessions; X-Sim-Session picks a session)',
  'GET /__sim/openapi.json (this API as an OpenAPI 3.1 document)',
  'GET /__sim/health (for probes: no token, any Host, also with the admin API off; 503 while stopping)',
  'GET /__sim/ (the QA panel: a page to see and steer the simulator)',
  'GET /__sim/demo/ (a demo page whose orders an msw service worker answers in the browser)',
]

/** The methods of each admin path, for the 405 of a wrong one. */
const ALLOWED: Readonly<Record<string, string>> = {
  '/': 'GET',
  '/scenarios': 'GET, POST',
  '/export': 'GET',
  '/health': 'GET',
  '/reset': 'POST',
  '/state': 'GET',
  '/requests': 'GET, DELETE',
  '/faults': 'GET, POST, DELETE',
  '/latency': 'GET, PUT',
  '/rate-limit': 'GET, PUT',
  '/sessions': 'GET',
  '/events': 'GET',
  '/orders': 'GET, POST',
  '/clock': 'GET, POST',
  '/openapi.json': 'GET',
  '/pact': 'GET',
  '/provider-states': 'POST',
}

/** The 404 of an unknown admin path, the 405 of a known one with the wrong method. */
export const adminFallback: RequestHandler = (req, res) => {
  const methods = /^\/orders\/[^/]+$/.test(req.path)
    ? 'GET, PATCH, DELETE'
    : /^\/scenarios\/[^/]+$/.test(req.path)
      ? 'GET'
      : /^\/(faults|sessions)\/[^/]+$/.test(req.path)
        ? 'DELETE'
        : ALLOWED[req.path]
  sendError(
    res,
    methods === undefined
      ? new ApiError(404, ErrorCode.NotFound, `No admin endpoint at ${req.method} /__sim${req.path}. GET /__sim lists them.`)
      : new ApiError(405, ErrorCode.MethodNotAllowed, `${req.method} is not allowed on /__sim${req.path}; use ${methods}.`, {
          Allow: methods,
        }),
  )
}
