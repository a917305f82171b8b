import { timingSafeEqual } from 'node:crypto'
import { adminOpenApiDocument } from '../../../contract/admin-openapi-document.js'
import { type RequestHandler, Router } from 'express'
import { invalidRequest } from '../../../core/api-error.js'
import { unauthorized } from '../../../core/bearer-auth.js'
import { isScenarioError } from '../../../core/scenario/scenario-error.js'
import { internalsOf } from '../../../core/simulator/internals.js'
import type { LoadedScenario, SimulatorCore } from '../../../core/simulator/types.js'
import type { ValidationError } from '../../../core/validation-error.js'
import { sendError } from '../../node/node-edge.js'
import { adminFallback, ADMIN_ENDPOINTS } from './admin-endpoints.js'
import { action, sendRemoved } from './admin-action.js'
import { addControlRoutes } from './admin-controls.js'
import { addOrderRoutes } from './admin-orders.js'
import { addPactRoutes } from './admin-pact.js'
import { readJsonObject, readQuery, sendJson } from './admin-json.js'
import { addScenarioFileRoutes } from './admin-scenario-files.js'
import { availableScenarios, readResetRequest, scenarioFileInvalid, scenarioSummary } from './admin-scenarios.js'
import { demoRouter } from './demo-route.js'
import { eventsRoute } from './admin-events.js'
import { panelRouter } from './panel-route.js'

/** The admin edge: a bad input is a 400 naming it. */
const failAdmin = (error: ValidationError): never => {
  throw invalidRequest(error.message)
}

/** Requires the admin token on everything but the demo page's static files. */
function requireToken(token: string): RequestHandler {
  const expected = Buffer.from(`bearer ${token}`)
  return (req, res, next) => {
    if (req.path === '/demo' || req.path.startsWith('/demo/')) return next()
    const given = Buffer.from((req.headers.authorization ?? '').replace(/^bearer(?= )/i, 'bearer'))
    if (given.length === expected.length && timingSafeEqual(given, expected)) return next()
    sendError(
      res,
      unauthorized('The admin API needs its token: send "Authorization: Bearer <admin token>" (the order API keys do not open it).'),
    )
  }
}

/**
 * The admin API, mounted under `/__sim`: scenarios, reset, state, the request
 * journal, misbehaviour and sessions, JSON in and out. Every call with
 * X-Sim-Session acts on that session only.
 */
export function createAdminRouter(
  sim: SimulatorCore,
  options: { token?: string | undefined; startedWith?: LoadedScenario | undefined; shutdown?: AbortSignal | undefined } = {},
): Router {
  const router = Router()
  const internals = internalsOf(sim)
  // The server's first scenario, even when the router is made later (startSimulatorServer makes it on first use).
  const startedWith = options.startedWith ?? sim.scenario()
  // Looked up per call: the scenarios folder changes under a running server.
  const available = () => availableScenarios(startedWith, internals.folder)
  // The panel's page and files need no token: the page asks for it.
  router.use(panelRouter())
  if (options.token !== undefined) router.use(requireToken(options.token))
  router.use((req, res, next) => {
    const id = req.headers['x-sim-session']
    const sessionId = typeof id === 'string' && id !== '' ? id : null
    // Both kept for the routes: the view to act through, the id for what reaches the internals (the event stream).
    res.locals['sessionId'] = sessionId
    try {
      res.locals['view'] = internals.view(sessionId, failAdmin)
    } catch (error) {
      sendError(res, error)
      return
    }
    next()
  })

  router.get('/', (_req, res) => sendJson(res, 200, { endpoints: ADMIN_ENDPOINTS }))
  router.get('/openapi.json', (_req, res) => sendJson(res, 200, adminOpenApiDocument))
  router.get('/events', eventsRoute(sim, options.shutdown))
  router.get('/sessions', (_req, res) => sendJson(res, 200, sim.sessions()))
  router.delete('/sessions/:id', (req, res) => sendRemoved(res, sim.endSession(req.params['id'] ?? ''), 'session', req.params['id']))
  router.get(
    '/scenarios',
    action((_req, res, view) => {
      const current = view.scenario().name
      sendJson(
        res,
        200,
        [...available().values()].map((scenario) => scenarioSummary(scenario, current)),
      )
    }),
  )
  router.post(
    '/reset',
    action((req, res, view) => {
      const request = readResetRequest(readJsonObject(req), available())
      try {
        void view.reset(request)
      } catch (error) {
        // The startup file or a folder's may have been edited into something invalid: the request was fine, the file is not.
        if (isScenarioError(error)) throw scenarioFileInvalid(error, startedWith)
        throw error
      }
      sendJson(res, 200, view.state())
    }),
  )
  router.get(
    '/state',
    action((_req, res, view) => sendJson(res, 200, view.state())),
  )
  router.get(
    '/requests',
    action((req, res, view) => sendJson(res, 200, view.requests(readQuery(req.originalUrl)))),
  )
  router.delete(
    '/requests',
    action((_req, res, view) => {
      view.journal.clear()
      res.status(204).end()
    }),
  )
  addScenarioFileRoutes(router, available, { folder: internals.folder, startedWith })
  addControlRoutes(router)
  addOrderRoutes(router)
  addPactRoutes(router)
  router.use('/demo', demoRouter())
  router.use(adminFallback)
  return router
}
