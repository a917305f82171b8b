import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http'
import express, { type ErrorRequestHandler, type Request as ExpressRequest, type RequestHandler } from 'express'
import { createAdminRouter } from './admin.js'
import { ApiError } from './api-error.js'
import { ErrorCode } from './error-codes.js'
import { sendError } from './express-responses.js'
import { createAdminOriginCheck } from './admin-origin.js'
import { ADMIN_PREFIX, createFrontDoor, isAdminPath, logWhenFinished, setCorsHeaders, targetError } from './front-door.js'
import { createHostCheck, type HostCheckOptions } from './host-check.js'
import { mswMiddleware } from './msw-middleware.js'
import { readBody } from './read-body.js'
import { checkBasePath, matchRoute, OPERATION_METHODS, parseApiBase, type ApiBase } from './routes.js'
import { createSimulator, DEFAULT_BODY_LIMIT, type LoadedScenario, type Simulator, type SimulatorOptions } from './simulator.js'

export interface SimulatorAppOptions extends Omit<SimulatorOptions, 'baseUrl'> {
  /** The path the API is served under (default `/v1`), on whatever host the server is reached by. */
  basePath?: string
  /** Serve the admin API under `/__sim` (default true). */
  admin?: boolean
  /** When set, every admin call must send `Authorization: Bearer <adminToken>` (401 otherwise). */
  adminToken?: string
  /**
   * Host names (a leading dot for a domain and its subdomains) answered
   * besides loopback names and addresses; `'all'` turns the Host check off.
   * Any other Host gets 403 `forbidden_host`.
   */
  allowedHosts?: HostCheckOptions['allowedHosts']
  /** Origins of web pages allowed to call the admin API besides loopback origins and the server's own. */
  adminOrigins?: readonly string[]
  /** Receives one line per request (`GET /v1/store/orders 200 1.2ms`); omit it for silence. */
  log?: (line: string) => void
  /** Receives every unexpected error (a simulator bug) that was answered with 500 `internal_error`. */
  onError?: (error: unknown) => void
  /** Serve this simulator instead of creating one from the options. */
  simulator?: Simulator
  /** The Host check to use, when the caller (startSimulatorServer) knows the address it is bound to. */
  hostCheck?: (header: string | undefined) => ApiError | null
  /**
   * The scenario the server started with, when the app is made after the
   * start (startSimulatorServer makes it on first use): a scenario file stays
   * reachable by name over the admin API whatever was loaded since. Default:
   * the simulator's current one.
   */
  startedWith?: LoadedScenario
}

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

const ANY_METHOD = 'GET, POST, PUT, PATCH, DELETE'

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value
}

/**
 * What express itself refuses as the client's fault (a path parameter with
 * bad percent-encoding: 400), as an Error body; null for anything else.
 */
function clientError(error: unknown): ApiError | null {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined
  if (typeof status !== 'number' || status < 400 || status > 499) return null
  const reason = status === 400 && error instanceof URIError ? 'The request path has a bad percent-encoding.' : 'The request is not valid.'
  return new ApiError(status, status === 400 ? ErrorCode.InvalidRequest : ErrorCode.NotFound, reason)
}

function allowedMethods(req: ExpressRequest, base: ApiBase, admin: boolean): string {
  const url = new URL(req.originalUrl, 'http://simulator')
  const match = matchRoute(url, base)
  if (match !== null) return OPERATION_METHODS[match.operation]
  if (admin && (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`))) return 'GET, POST, PUT, DELETE'
  return ANY_METHOD
}

/**
 * CORS for frontends served from another origin: every answer carries
 * `Access-Control-Allow-Origin`, and any OPTIONS request is answered here as
 * a preflight, before any handler sees it. It also notes when the request
 * arrived, for the journal.
 */
function cors(basePath: string, admin: boolean): RequestHandler {
  const base = parseApiBase(basePath)
  return (req, res, next) => {
    res.locals['started'] = Date.now()
    setCorsHeaders(req, res, admin && isAdminPath(req.originalUrl))
    if (req.method !== 'OPTIONS') {
      next()
      return
    }
    const requested = (req.headers['access-control-request-headers'] ?? '').split(',').map((name) => name.trim()).filter(Boolean)
    const allowHeaders = ['Authorization', 'Content-Type', ...requested.filter((name) => !/^(authorization|content-type)$/i.test(name))]
    const methods = allowedMethods(req, base, admin)
    res.setHeader('Access-Control-Allow-Methods', methods)
    res.setHeader('Access-Control-Allow-Headers', allowHeaders.join(', '))
    res.setHeader('Access-Control-Max-Age', '600')
    res.setHeader('Allow', `${methods}, OPTIONS`)
    res.status(204).end()
  }
}

function requestLog(log: (line: string) => void): RequestHandler {
  return (req, res, next) => {
    logWhenFinished(log, req, res)
    next()
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
export function createSimulatorApp(options: SimulatorAppOptions = {}): SimulatorApp {
  const basePath = checkBasePath(options.basePath)
  const sim = options.simulator ?? createSimulator({ ...options, baseUrl: basePath })
  const admin = options.admin ?? true
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  const app = express()
  app.disable('x-powered-by')
  app.set('etag', false)
  // Nothing reads req.query: the spec defines no query parameters, and parsing costs every request.
  app.set('query parser', false)

  /** Records what express itself answered; the handlers record what msw answered. */
  function recordInJournal(req: ExpressRequest, status: number, started: number): void {
    if (admin && req.path.startsWith(ADMIN_PREFIX)) return
    sim.journal.record({
      time: started,
      method: req.method,
      path: req.originalUrl,
      status,
      duration: Date.now() - started,
      operation: null,
      orderId: null,
    })
  }

  if (options.log !== undefined) app.use(requestLog(options.log))
  const hostCheck = options.hostCheck ?? createHostCheck({ allowedHosts: options.allowedHosts })
  app.use((req, res, next) => {
    // Before anything else: a rebinding Host or a proxy-style target changes nothing and is not journaled.
    const refused = hostCheck(req.headers.host) ?? targetError(req.url)
    if (refused === null) next()
    else sendError(res, refused)
  })
  if (admin) {
    const originCheck = createAdminOriginCheck(options.adminOrigins)
    app.use(ADMIN_PREFIX, (req, res, next) => {
      const refused = originCheck({ origin: req.headers.origin, secFetchSite: header(req.headers['sec-fetch-site']), host: req.headers.host })
      if (refused === null) next()
      else sendError(res, refused)
    })
  }
  app.use(cors(basePath, admin))
  // Every body is read here, whatever its type, so that one limit applies to all.
  app.use(readBody(bodyLimit))
  if (admin) app.use(ADMIN_PREFIX, createAdminRouter(sim, { token: options.adminToken, startedWith: options.startedWith }))
  app.use(mswMiddleware(sim.handlers))
  app.use((req, res) => {
    const error = new ApiError(404, ErrorCode.NotFound, `No operation at ${req.method} ${req.path}. The simulated API is under ${basePath}${admin ? `; the admin API is under ${ADMIN_PREFIX}` : ''}.`)
    recordInJournal(req, 404, res.locals['started'] as number)
    sendError(res, error)
  })
  const onError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy()
      return
    }
    const answer = error instanceof ApiError ? error : clientError(error)
    if (answer === null) options.onError?.(error)
    recordInJournal(req, answer?.status ?? 500, res.locals['started'] as number)
    sendError(res, answer ?? error)
  }
  app.use(onError)
  const listener = createFrontDoor({ sim, app, admin, log: options.log, onError: options.onError, hostCheck })
  return { app, sim, listener }
}

