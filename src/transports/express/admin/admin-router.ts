import { timingSafeEqual } from 'node:crypto'
import { type RequestHandler, Router } from 'express'
import { unauthorized } from '../../../core/bearer-auth.js'
import { type ErrorReporter, errorReporter } from '../../../core/dispatch/error-reporter.js'
import { internalsOf } from '../../../core/simulator/internals.js'
import type { LoadedScenario, SimulatorCore } from '../../../core/simulator/types.js'
import { adminOpenApiDocument, endpointLines } from '../../../core/admin/admin-document.js'
import { sendJson } from './admin-json.js'
import { operationRoute } from './operation-route.js'
import { scenarioSource } from '../../../core/admin/scenario-catalog.js'
import { failAdmin } from '../../../core/admin/admin-input.js'
import type { AdminOperation } from '../../../core/admin/admin-operation.js'
import { ADMIN_OPERATIONS, type AdminOperationId, routePath, type TransportOperationId } from '../../../core/admin/admin-table.js'
import { demoRouter, panelRouter } from './page-routes.js'
import { eventsRoute } from './admin-events.js'
import { mcpRoute } from './mcp-route.js'

/** Requires the admin token on everything but the demo page's static files. */
function requireToken(token: string): RequestHandler {
  const expected = Buffer.from(`bearer ${token}`)
  return (req, _res, next) => {
    if (req.path === '/demo' || req.path.startsWith('/demo/')) return next()
    const given = Buffer.from((req.headers.authorization ?? '').replace(/^bearer(?= )/i, 'bearer'))
    if (given.length === expected.length && timingSafeEqual(given, expected)) return next()
    next(unauthorized('The admin API needs its token: send "Authorization: Bearer <admin token>" (the order API keys do not open it).'))
  }
}

/** What the router reads of the admin app's options (AdminAppOptions). */
export interface AdminRouterOptions {
  /** When set, every admin call must send `Authorization: Bearer <token>` (401 otherwise). */
  token?: string | undefined
  /** The scenario the server started with: a scenario file stays reachable by name over the admin API whatever was loaded since. */
  startedWith?: LoadedScenario | undefined
  /** Aborted when the server closes: open event streams end then, instead of holding the close. */
  shutdown?: AbortSignal | undefined
  /** Told of a simulator bug a call met (the console without one). */
  report?: ErrorReporter | undefined
}

/** The admin table's operations as express routes, mounted under `/__sim`, each on the state X-Sim-Session names. */
export function createAdminRouter(sim: SimulatorCore, options: AdminRouterOptions = {}): Router {
  const router = Router()
  const internals = internalsOf(sim)
  const protocolPaths = new Set(
    (Object.values(ADMIN_OPERATIONS) as AdminOperation[]).filter((each) => each.protocol === true).map((each) => routePath(each.path)),
  )
  // The server's first scenario, even when the router is made later (startSimulatorServer makes it on first use).
  const scenarios = scenarioSource(options.startedWith ?? sim.scenario(), internals.folder)
  // The panel's page and files need no token: the page asks for it.
  router.use(panelRouter())
  if (options.token !== undefined) router.use(requireToken(options.token))
  router.use((req, res, next) => {
    // X-Sim-Session only, never the baggage header's sim-session member (session-source.ts): a tool names a
    // session deliberately, and the baggage an instrumented test runner sends must not redirect its admin calls.
    const id = req.headers['x-sim-session']
    const sessionId = typeof id === 'string' && id !== '' ? id : null
    // Both kept for the routes: the view to act through, the id for what reaches the internals (the event stream).
    res.locals['sessionId'] = sessionId
    // MCP's endpoint answers 200 for a refused tool call: each call makes the session and ends it on failure itself.
    if (protocolPaths.has(req.path)) return next()
    // A call that fails leaves no session it made behind (a reset to an unknown scenario would fill --max-sessions).
    const made = sessionId !== null && !internals.hasSession(sessionId)
    try {
      res.locals['view'] = internals.view(sessionId, failAdmin)
    } catch (error) {
      return next(error)
    }
    if (made) res.on('finish', () => res.statusCode >= 400 && sim.endSession(sessionId))
    next()
  })

  const transport: Record<TransportOperationId, RequestHandler> = {
    listAdminEndpoints: (_req, res) => sendJson(res, 200, { endpoints: endpointLines() }),
    getAdminOpenApiDocument: (_req, res) => sendJson(res, 200, adminOpenApiDocument),
    streamEvents: eventsRoute(sim, options.shutdown),
    mcp: mcpRoute(sim, scenarios, options.report ?? errorReporter(undefined)),
  }
  for (const [id, operation] of Object.entries(ADMIN_OPERATIONS) as [AdminOperationId, AdminOperation][]) {
    // The pages are served by panelRouter (before the token) and demoRouter (below), the health check by the server's edge.
    if (operation.page === true || operation.probe === true) continue
    const handler = operation.run === undefined ? transport[id as keyof typeof transport] : operationRoute(operation, sim, scenarios)
    router[operation.method.toLowerCase() as 'get'](routePath(operation.path), handler)
  }
  router.use('/demo', demoRouter())
  return router
}
