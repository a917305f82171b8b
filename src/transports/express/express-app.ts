import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http'
import express, { type ErrorRequestHandler, type Request as ExpressRequest, type RequestHandler } from 'express'
import { ApiError } from '../../core/api-error.js'
import { errorReporter } from '../../core/dispatch/unexpected-error.js'
import { ErrorCode } from '../../core/error-codes.js'
import { internalsOf } from '../../core/simulator/internals.js'
import { arrival, elapsedSince, type Arrival } from '../../core/state/journal.js'
import type { Simulator } from '../msw/msw-simulator.js'
import { createFrontDoor } from '../node/front-door.js'
import { createHealthCheck, isHealthPath } from '../node/health.js'
import { createHostCheck } from '../node/host-check.js'
import { ADMIN_PREFIX, logWhenFinished, sendError, targetError } from '../node/node-edge.js'
import { packageVersion } from '../node/package-root.js'
import { createAdminOriginCheck } from './admin/admin-origin.js'
import { createAdminRouter } from './admin/admin-router.js'
import { createBundledSimulator } from '../msw/bundled-simulator.js'
import { simulatorFor, type InternalAppOptions } from './app-options.js'
import { clientError, cors } from './express-edge.js'
import { mswMiddleware } from './msw-middleware.js'
import { readBody } from './read-body.js'

/**
 * An express application, typed without express's types so that a consumer
 * needs no `@types/express`: a request listener that also takes express's
 * `next`, so `yourApp.use(app)` and `http.createServer(app)` both work.
 */
export interface MountableApp {
  (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): void
  /** express's `app.listen`: a Node HTTP server serving this app. */
  listen(port: number, hostname: string, callback?: () => void): Server
}

export interface SimulatorApp {
  /** The whole simulator as an express app (API through msw's handlers, admin, CORS): mount it in your own server if you like. */
  app: MountableApp
  sim: Simulator
  /**
   * The standalone server's request listener: bodiless API requests go
   * straight to the simulator's operations (the fast path), everything else
   * to `app`. The answers are the same either way.
   */
  listener: RequestListener
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}

/** Refuses, before anything else runs, what `check` returns an error for. */
function guard(check: (req: ExpressRequest) => ApiError | null): RequestHandler {
  return (req, res, next) => {
    const refused = check(req)
    if (refused === null) next()
    else sendError(res, refused)
  }
}

/**
 * The simulator as an express app: its msw handlers (through
 * `mswMiddleware`), plus everything that is not a mocked answer (CORS, the
 * admin API, JSON 404s and errors). Nothing answers HTML. The standalone
 * server (`listener`, `startSimulatorServer`) puts a front door before it
 * that answers bodiless API requests without express or msw.
 *
 * @example
 * const { app, sim } = createSimulatorApp({ scenario: 'shipped' })
 * const server = app.listen(0, '127.0.0.1')
 */
export function createSimulatorApp(options: InternalAppOptions = {}): SimulatorApp {
  const { sim, basePath } = simulatorFor(options, createBundledSimulator)
  const internals = internalsOf(sim)
  const admin = options.admin ?? true
  // What the server itself fails at; what the simulator fails at, its own onError is told.
  const report = errorReporter(options.onError)
  const app = express()
  app.disable('x-powered-by')
  app.set('etag', false)
  // Nothing reads req.query: the spec defines no query parameters, and parsing costs every request.
  app.set('query parser', false)

  /** Records what express itself answered; the dispatcher records what msw answered. */
  function recordInJournal(req: ExpressRequest, status: number, { time, started }: Arrival): void {
    if (admin && req.path.startsWith(ADMIN_PREFIX)) return
    internals.journal.record({
      time,
      method: req.method,
      path: req.originalUrl,
      status,
      duration: elapsedSince(started),
      operation: null,
      orderId: null,
    })
  }

  app.use((_req, res, next) => {
    res.locals['arrival'] = arrival()
    next()
  })
  const { log } = options
  if (log !== undefined) {
    app.use((req, res, next) => {
      logWhenFinished(log, req, res)
      next()
    })
  }
  const health = createHealthCheck(packageVersion(), () => options.shutdown?.aborted === true)
  // What probes call: from any Host, with or without the admin API.
  app.use((req, res, next) => (isHealthPath(req.url) ? health(req, res) : next()))
  const hostCheck = options.hostCheck ?? createHostCheck({ allowedHosts: options.allowedHosts })
  // Before anything else: a rebinding Host or a proxy-style target changes nothing and is not journaled.
  app.use(guard((req) => hostCheck(req.headers.host) ?? targetError(req.url)))
  if (admin) {
    const originCheck = createAdminOriginCheck(options.adminOrigins)
    app.use(
      ADMIN_PREFIX,
      guard((req) =>
        originCheck({ origin: req.headers.origin, secFetchSite: header(req.headers['sec-fetch-site']), host: req.headers.host }),
      ),
    )
  }
  app.use(cors(basePath, admin))
  // Every body is read here, whatever its type, so that one limit applies to all.
  app.use(readBody(internals.bodyLimit))
  if (admin)
    app.use(
      ADMIN_PREFIX,
      createAdminRouter(sim, { token: options.adminToken, startedWith: options.startedWith, shutdown: options.shutdown }),
    )
  app.use(mswMiddleware(sim.handlers))
  app.use((req, res) => {
    const where = `The simulated API is under ${basePath}${admin ? `; the admin API is under ${ADMIN_PREFIX}` : ''}.`
    recordInJournal(req, 404, res.locals['arrival'] as Arrival)
    sendError(res, new ApiError(404, ErrorCode.NotFound, `No operation at ${req.method} ${req.path}. ${where}`))
  })
  const onError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy()
      return
    }
    const answer = error instanceof ApiError ? error : clientError(error)
    if (answer === null) report(error, { method: req.method, target: req.originalUrl })
    recordInJournal(req, answer?.status ?? 500, res.locals['arrival'] as Arrival)
    sendError(res, answer ?? error)
  }
  app.use(onError)
  const listener = createFrontDoor({ dispatcher: internals.dispatcher, app, admin, log, report, hostCheck, health })
  return { app, sim, listener }
}
