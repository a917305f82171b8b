import { timingSafeEqual } from 'node:crypto'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import express, { Router, type Request as ExpressRequest, type Response as ExpressResponse } from 'express'
import { ApiError } from './api-error.js'
import { unauthorized } from './auth.js'
import { ErrorCode } from './error-codes.js'
import type { Scenario } from './glossary.js'
import { BUILTIN_SCENARIOS } from './scenario/builtin-scenarios.js'
import { isScenarioError } from './scenario/scenario-error.js'
import { jsonTooDeep, MAX_JSON_DEPTH } from './json-depth.js'
import { parseFault, parseLatencySettings, parseRateLimit } from './controls.js'
import { sendError, sendJson } from './express-responses.js'
import { packageRoot } from './package-root.js'
import type { LoadedScenario, Simulator, SimulatorView } from './simulator.js'

interface AvailableScenario {
  name: string
  description: string
  builtin: boolean
  /** What `reset` loads: a built-in name, or the path of the file the server started with. */
  load: string | Scenario
}

/**
 * The scenarios a caller may name over HTTP: the built-in ones, plus the one
 * the server started with when that came from a file. Names only: a path
 * given over HTTP is never read.
 */
function availableScenarios(started: LoadedScenario): Map<string, AvailableScenario> {
  const available = new Map<string, AvailableScenario>()
  for (const [name, raw] of Object.entries(BUILTIN_SCENARIOS)) {
    available.set(name, { name, description: (raw as Scenario).description ?? '', builtin: true, load: name })
  }
  if (started.source !== started.name) {
    // Loaded from a file: its name reloads it from that file, so an edited file is picked up.
    available.set(started.name, { name: started.name, description: started.description, builtin: false, load: started.source })
  }
  return available
}

/** The JSON value of the body, or `undefined` for none. */
function readJson(req: ExpressRequest): unknown {
  const body: unknown = req.body
  const text = Buffer.isBuffer(body) ? body.toString('utf8').trim() : ''
  if (text === '') return undefined
  if (jsonTooDeep(text)) throw new ApiError(400, ErrorCode.InvalidRequest, `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`)
  try {
    return JSON.parse(text) as unknown
  } catch {
    throw new ApiError(400, ErrorCode.InvalidRequest, 'The request body is not valid JSON.')
  }
}

function readJsonBody(req: ExpressRequest): Record<string, unknown> {
  const value = readJson(req) ?? {}
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError(400, ErrorCode.InvalidRequest, 'The request body must be a JSON object.')
  }
  return value as Record<string, unknown>
}

/**
 * The admin API, mounted under `/__sim`: scenarios, reset, state and the
 * request journal, JSON in and out.
 */
export function createAdminRouter(sim: Simulator, options: { token?: string | undefined; startedWith?: LoadedScenario | undefined } = {}): Router {
  const router = Router()
  const { token } = options
  // The server's first scenario, even when the router is made later (startSimulatorServer makes it on first use).
  const available = availableScenarios(options.startedWith ?? sim.scenario())
  const names = () => [...available.keys()].join(', ')

  if (token !== undefined) {
    const expected = Buffer.from(`bearer ${token}`)
    router.use((req, res, next) => {
      // The demo is static files; the token guards what can read or change state.
      if (req.path === '/demo' || req.path.startsWith('/demo/')) return next()
      const header = req.headers.authorization ?? ''
      const given = Buffer.from(header.replace(/^bearer(?= )/i, 'bearer'))
      if (given.length === expected.length && timingSafeEqual(given, expected)) return next()
      sendError(
        res,
        unauthorized('The admin API needs its token: send "Authorization: Bearer <admin token>" (the order API keys do not open it).'),
      )
    })
  }

  // Every admin call with X-Sim-Session acts on that session only.
  router.use((req, res, next) => {
    const id = req.headers['x-sim-session']
    if (typeof id !== 'string' || id === '') {
      res.locals['target'] = sim
      next()
      return
    }
    try {
      res.locals['target'] = sim.session(id)
      next()
    } catch (error) {
      sendError(res, new ApiError(400, ErrorCode.InvalidRequest, error instanceof Error ? error.message.replace(/^Failed to open a session of the simulator: /, '') : String(error)))
    }
  })
  const of = (res: ExpressResponse): SimulatorView => res.locals['target'] as SimulatorView

  router.get('/sessions', (_req, res) => sendJson(res, 200, sim.sessions()))
  router.delete('/sessions/:id', (req, res) => {
    if (sim.endSession(req.params['id'] ?? '')) res.status(204).end()
    else sendError(res, new ApiError(404, ErrorCode.NotFound, `No session has the id ${JSON.stringify(req.params['id'])}; GET /__sim/sessions lists them.`))
  })

  router.get('/', (_req, res) => {
    sendJson(res, 200, {
      endpoints: [
        'GET /__sim/scenarios',
        'POST /__sim/reset {"scenario"?: name, "seed"?: number}',
        'GET /__sim/state',
        'GET /__sim/requests',
        'DELETE /__sim/requests',
        'GET /__sim/faults',
        'POST /__sim/faults {"operation", "kind", "status"?, "orderId"?, "times"?, "probability"?, ...}',
        'DELETE /__sim/faults (all) or /__sim/faults/:id',
        'GET, PUT /__sim/latency 50 | "50-400" | {"default"?, "listOrders"?, "cancelOrder"?, "getPetById"?} | null',
        'GET, PUT /__sim/rate-limit "100/60s" | {"limit", "windowSeconds"} | null',
        'GET /__sim/sessions, DELETE /__sim/sessions/:id (send X-Sim-Session with any call to act on that session)',
        'GET /__sim/demo/ (a demo page whose orders an msw service worker answers in the browser)',
      ],
    })
  })

  router.get('/scenarios', (_req, res) => {
    const current = of(res).state().scenario
    sendJson(res, 200, [...available.values()].map(({ name, description, builtin }) => ({ name, description, builtin, current: name === current })))
  })

  router.post('/reset', (req, res) => {
    try {
      const body = readJsonBody(req)
      const unknown = Object.keys(body).filter((key) => key !== 'scenario' && key !== 'seed')
      if (unknown.length > 0) {
        throw new ApiError(400, ErrorCode.InvalidRequest, `Unknown field ${unknown.map((key) => JSON.stringify(key)).join(', ')}; a reset takes "scenario" (a name) and "seed" (a whole number).`)
      }
      const { scenario, seed } = body
      if (seed !== undefined && (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)) {
        throw new ApiError(400, ErrorCode.InvalidRequest, `"seed" must be a whole number of 0 or more, got ${JSON.stringify(seed)}.`)
      }
      if (scenario !== undefined && typeof scenario !== 'string') {
        throw new ApiError(400, ErrorCode.InvalidRequest, `"scenario" must be a scenario name, got ${JSON.stringify(scenario)}. The available scenarios are ${names()}.`)
      }
      const target = scenario === undefined ? undefined : available.get(scenario)
      if (scenario !== undefined && target === undefined) {
        throw new ApiError(400, ErrorCode.UnknownScenario, `Unknown scenario ${JSON.stringify(scenario.slice(0, 80))}: over HTTP a scenario is named, never a path. The available scenarios are ${names()}.`)
      }
      try {
        of(res).reset({ scenario: target?.load, seed })
      } catch (error) {
        // The startup file may have been edited into something invalid; the state is unchanged.
        if (isScenarioError(error)) throw new ApiError(400, ErrorCode.InvalidRequest, error.message)
        throw error
      }
      sendJson(res, 200, of(res).state())
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      sendError(res, error)
    }
  })

  /** Runs an admin action; a 400 ApiError it throws becomes the answer. */
  const action = (run: (req: ExpressRequest, res: ExpressResponse) => void) => (req: ExpressRequest, res: ExpressResponse) => {
    try {
      run(req, res)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      sendError(res, error)
    }
  }

  router.get('/faults', (_req, res) => sendJson(res, 200, of(res).controls.faults()))
  router.post('/faults', action((req, res) => sendJson(res, 201, of(res).controls.addFault(parseFault(readJson(req))))))
  router.delete('/faults', (_req, res) => {
    of(res).controls.clearFaults()
    res.status(204).end()
  })
  router.delete('/faults/:id', (req, res) => {
    if (of(res).controls.removeFault(Number(req.params['id']))) res.status(204).end()
    else sendError(res, new ApiError(404, ErrorCode.NotFound, `No fault has the id ${JSON.stringify(req.params['id'])}; GET /__sim/faults lists them.`))
  })
  router.get('/latency', (_req, res) => sendJson(res, 200, of(res).controls.latency()))
  router.put('/latency', action((req, res) => {
    const value = readJson(req)
    of(res).controls.setLatency(value === null || value === undefined ? {} : parseLatencySettings(value))
    sendJson(res, 200, of(res).controls.latency())
  }))
  router.get('/rate-limit', (_req, res) => sendJson(res, 200, of(res).controls.rateLimit()))
  router.put('/rate-limit', action((req, res) => {
    const value = readJson(req)
    of(res).controls.setRateLimit(value === null || value === undefined ? null : parseRateLimit(value))
    sendJson(res, 200, of(res).controls.rateLimit())
  }))

  router.get('/state', (_req, res) => {
    sendJson(res, 200, of(res).state())
  })

  router.get('/requests', (_req, res) => {
    sendJson(res, 200, of(res).journal.entries())
  })

  router.delete('/requests', (_req, res) => {
    of(res).journal.clear()
    res.status(204).end()
  })

  const demo = fileURLToPath(new URL('dist/demo/', packageRoot()))
  router.get('/demo', (req, res, next) => {
    // Relative URLs in the page (./main.js, the worker) need the trailing slash.
    if (new URL(req.originalUrl, 'http://simulator').pathname.endsWith('/')) next()
    else res.redirect(301, '/__sim/demo/')
  })
  // dist/demo holds the worker script of the msw that built main.js (scripts/build-demo.mjs).
  router.use('/demo', (_req, res, next) => {
    if (existsSync(demo)) next()
    else sendError(res, new ApiError(404, ErrorCode.NotFound, 'The demo page is not built: run "npm run build" in the package folder.'))
  })
  router.use('/demo', express.static(demo, { index: 'index.html', redirect: false }))

  const allowed: Record<string, string> = {
    '/': 'GET',
    '/scenarios': 'GET',
    '/reset': 'POST',
    '/state': 'GET',
    '/requests': 'GET, DELETE',
    '/faults': 'GET, POST, DELETE',
    '/latency': 'GET, PUT',
    '/rate-limit': 'GET, PUT',
    '/sessions': 'GET',
  }
  router.use((req, res) => {
    const methods = /^\/(faults|sessions)\/[^/]+$/.test(req.path) ? 'DELETE' : allowed[req.path]
    sendError(
      res,
      methods === undefined
        ? new ApiError(404, ErrorCode.NotFound, `No admin endpoint at ${req.method} /__sim${req.path}. GET /__sim lists them.`)
        : new ApiError(405, ErrorCode.MethodNotAllowed, `${req.method} is not allowed on /__sim${req.path}; use ${methods}.`, { Allow: methods }),
    )
  })
  return router
}
