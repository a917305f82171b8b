import { createServer, type Server } from 'node:http'
import type { Duplex } from 'node:stream'
import type { AddressInfo } from 'node:net'
import { createMiddleware } from '@mswjs/http-middleware'
import express, { type ErrorRequestHandler, type Express, type Request as ExpressRequest, type RequestHandler, type Response as ExpressResponse } from 'express'
import { getResponse, http, passthrough, type HttpHandler } from 'msw'
import { createAdminRouter } from './admin.js'
import { ApiError } from './api-error.js'
import { ErrorCode } from './error-codes.js'
import { sendError } from './express-responses.js'
import { matchRoute, OPERATION_METHODS, parseApiBase } from './routes.js'
import { createSimulator, DEFAULT_BODY_LIMIT, type Simulator, type SimulatorOptions } from './simulator.js'

export interface SimulatorAppOptions extends Omit<SimulatorOptions, 'baseUrl'> {
  /** The path the API is served under (default `/v1`), on whatever host the server is reached by. */
  basePath?: string
  /** Serve the admin API under `/__sim` (default true). */
  admin?: boolean
  /** When set, every admin call must send `Authorization: Bearer <adminToken>` (401 otherwise). */
  adminToken?: string
  /** Receives one line per request (`GET /v1/store/orders 200 1.2ms`); omit it for silence. */
  log?: (line: string) => void
  /** Receives every unexpected error (a simulator bug) that was answered with 500 `internal_error`. */
  onError?: (error: unknown) => void
  /** Serve this simulator instead of creating one from the options. */
  simulator?: Simulator
}

export interface SimulatorApp {
  app: Express
  sim: Simulator
}

const ADMIN_PREFIX = '/__sim'
const EXPOSED_HEADERS = 'Deprecation, Sunset, Link, WWW-Authenticate, Allow, Retry-After'
const ANY_METHOD = 'GET, POST, PUT, PATCH, DELETE'

/** Thrown from inside msw when a handler answers `Response.error()`: the bridge cannot write status 0. */
class NetworkErrorSignal extends Error {
  override name = 'NetworkErrorSignal'
}

/**
 * @mswjs/http-middleware writes `Response.error()` as status 0, which throws
 * outside any promise chain and kills the process. One bridging handler asks
 * the simulator's handlers first and turns such a response into an error that
 * reaches express, where the connection is reset as a real network failure.
 */
function guardNetworkErrors(handlers: readonly HttpHandler[]): HttpHandler {
  // A predicate, not '*': msw decodes a string path with decodeURIComponent,
  // which throws on a malformed escape such as /v1/store/orders/%zz.
  return http.all(() => true, async ({ request }) => {
    const response = await getResponse([...handlers], request)
    if (response === undefined) return passthrough()
    if (response.type === 'error') throw new NetworkErrorSignal('A handler answered with a network error.')
    return response
  })
}

function allowedMethods(req: ExpressRequest, basePath: string, admin: boolean): string {
  const url = new URL(req.originalUrl, 'http://simulator')
  const match = matchRoute(url, parseApiBase(basePath))
  if (match !== null) return OPERATION_METHODS[match.operation]
  if (admin && (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`))) return 'GET, POST, DELETE'
  return ANY_METHOD
}

/**
 * CORS for frontends served from another origin: every answer carries
 * `Access-Control-Allow-Origin`, and any OPTIONS request is answered here as
 * a preflight (http-middleware has no CORS, so it would fall through to 404).
 */
function cors(basePath: string, admin: boolean): RequestHandler {
  return (req, res, next) => {
    const origin = req.headers.origin
    res.setHeader('Access-Control-Allow-Origin', origin ?? '*')
    if (origin !== undefined) {
      // The origin is reflected, so credentialed requests work too.
      res.setHeader('Access-Control-Allow-Credentials', 'true')
      res.vary('Origin')
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS)
    if (req.method !== 'OPTIONS') {
      next()
      return
    }
    const requested = (req.headers['access-control-request-headers'] ?? '').split(',').map((name) => name.trim()).filter(Boolean)
    const allowHeaders = ['Authorization', 'Content-Type', ...requested.filter((name) => !/^(authorization|content-type)$/i.test(name))]
    const methods = allowedMethods(req, basePath, admin)
    res.setHeader('Access-Control-Allow-Methods', methods)
    res.setHeader('Access-Control-Allow-Headers', allowHeaders.join(', '))
    res.setHeader('Access-Control-Max-Age', '600')
    res.setHeader('Allow', `${methods}, OPTIONS`)
    res.status(204).end()
  }
}

function requestLog(log: (line: string) => void): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint()
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      log(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(1)}ms`)
    })
    next()
  }
}

function isBodyParserError(error: unknown): error is { type: string; status: number } {
  return typeof error === 'object' && error !== null && 'type' in error && typeof error.type === 'string' && 'status' in error
}

/**
 * The express app of the standalone simulator: the simulator's msw handlers
 * through @mswjs/http-middleware, plus everything that is not a mocked
 * answer (CORS, the admin API, JSON 404s and errors). Nothing answers HTML.
 *
 * @example
 * const { app, sim } = createSimulatorApp({ scenario: 'shipped' })
 * const server = app.listen(0, '127.0.0.1')
 */
export function createSimulatorApp(options: SimulatorAppOptions = {}): SimulatorApp {
  const basePath = options.basePath ?? '/v1'
  if (!basePath.startsWith('/')) {
    throw new TypeError(`Failed to create the simulator: basePath must start with "/", got "${basePath}".`)
  }
  const sim = options.simulator ?? createSimulator({ ...options, baseUrl: basePath })
  const admin = options.admin ?? true
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  const app = express()
  app.disable('x-powered-by')
  app.set('etag', false)

  /** Records what express itself answered; the handlers record what msw answered. */
  function recordInJournal(req: ExpressRequest, status: number, started: number): void {
    if (admin && req.path.startsWith(ADMIN_PREFIX)) return
    sim.journal.record({
      time: new Date(started).toISOString(),
      method: req.method,
      path: req.originalUrl,
      status,
      duration: Date.now() - started,
      operation: null,
      orderId: null,
    })
  }

  if (options.log !== undefined) app.use(requestLog(options.log))
  app.use((req, res, next) => {
    res.locals['started'] = Date.now()
    next()
  })
  app.use(cors(basePath, admin))
  // Every body is read here, whatever its type, so that one limit applies to all.
  app.use(express.raw({ type: () => true, limit: bodyLimit }))
  app.use((req, _res, next) => {
    // Node keeps only the first of repeated Authorization headers; Fetch joins
    // them. Join them here too, so both transports see the same (invalid) value.
    const values = req.headersDistinct['authorization']
    if (values !== undefined && values.length > 1) req.headers.authorization = values.join(', ')
    next()
  })
  if (admin) app.use(ADMIN_PREFIX, createAdminRouter(sim, { token: options.adminToken }))
  app.use((req, _res, next) => {
    // http-middleware builds a URL from the Host header; a broken one would surface as a 500.
    if (!URL.canParse(`${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`)) {
      next(new ApiError(400, ErrorCode.InvalidRequest, 'The Host header or the request target is not a valid URL.'))
      return
    }
    next()
  })
  // Mounted at the root: http-middleware reads req.url, which a mount path would cut.
  // http-middleware is CommonJS and sees msw's CommonJS typings, where our
  // handler is an ESM class with protected members: the same object at run
  // time, a different nominal type to TypeScript.
  app.use(createMiddleware(guardNetworkErrors(sim.handlers) as unknown as Parameters<typeof createMiddleware>[0]))
  app.use((req, res) => {
    const error = new ApiError(404, ErrorCode.NotFound, `No operation at ${req.method} ${req.path}. The simulated API is under ${basePath}${admin ? `; the admin API is under ${ADMIN_PREFIX}` : ''}.`)
    recordInJournal(req, 404, res.locals['started'] as number)
    sendError(res, error)
  })
  const onError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    if (error instanceof NetworkErrorSignal) {
      // What a client sees of a network failure: the connection goes away.
      req.socket.destroy()
      return
    }
    if (res.headersSent) {
      res.destroy()
      return
    }
    if (!(error instanceof ApiError) && !isBodyParserError(error)) options.onError?.(error)
    const apiError =
      isBodyParserError(error) && error.type === 'entity.too.large'
        ? new ApiError(413, ErrorCode.PayloadTooLarge, `The request body is larger than ${bodyLimit} bytes.`)
        : isBodyParserError(error) && error.status >= 400 && error.status < 500
          ? new ApiError(400, ErrorCode.InvalidRequest, 'The request body could not be read.')
          : error
    recordInJournal(req, apiError instanceof ApiError ? apiError.status : 500, res.locals['started'] as number)
    sendError(res, apiError)
  }
  app.use(onError)
  return { app, sim }
}

/** The largest header section the server reads; a 16 KB key still gets its 401. */
export const MAX_HEADER_BYTES = 64 * 1024

function writeRawError(socket: Duplex, status: number, reason: string, error: ApiError): void {
  const body = JSON.stringify(error.body)
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n${body}`,
  )
}

/**
 * The Node HTTP server for an app. Requests Node's parser refuses (oversized
 * or malformed headers) get a JSON Error body too, instead of a bare status line.
 */
export function createHttpServer(app: Express): Server {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app)
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy()
      return
    }
    if (error.code === 'HPE_HEADER_OVERFLOW') {
      writeRawError(socket, 431, 'Request Header Fields Too Large', new ApiError(431, ErrorCode.HeadersTooLarge, `The request headers are larger than ${MAX_HEADER_BYTES} bytes.`))
    } else {
      writeRawError(socket, 400, 'Bad Request', new ApiError(400, ErrorCode.InvalidRequest, 'The request is not valid HTTP.'))
    }
  })
  return server
}

export interface StartOptions extends SimulatorAppOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
}

export interface RunningSimulator {
  sim: Simulator
  server: Server
  host: string
  port: number
  /** The base URL of the API, e.g. `http://127.0.0.1:4010/v1`. */
  url: string
  /** Stops accepting connections, lets requests in flight finish, then resolves. */
  close(): Promise<void>
}

export const DEFAULT_PORT = 4010
export const DEFAULT_HOST = '127.0.0.1'

/** Starts the standalone simulator and resolves once it listens. */
export function startSimulatorServer(options: StartOptions = {}): Promise<RunningSimulator> {
  const { app, sim } = createSimulatorApp(options)
  const host = options.host ?? DEFAULT_HOST
  const basePath = (options.basePath ?? '/v1').replace(/\/+$/, '')
  return new Promise((resolve, reject) => {
    const server = createHttpServer(app)
    server.listen(options.port ?? DEFAULT_PORT, host)
    server.once('error', reject)
    server.once('listening', () => {
      server.off('error', reject)
      const { port } = server.address() as AddressInfo
      const hostInUrl = host.includes(':') ? `[${host}]` : host
      resolve({
        sim,
        server,
        host,
        port,
        url: `http://${hostInUrl}:${port}${basePath}`,
        close: () =>
          new Promise<void>((done, fail) => {
            // A keep-alive connection would hold close() open once its request in
            // flight is answered: close connections as soon as they fall idle.
            const sweep = setInterval(() => server.closeIdleConnections(), 50)
            server.close((error) => {
              clearInterval(sweep)
              if (error) fail(error)
              else done()
            })
            server.closeIdleConnections()
          }),
      })
    })
  })
}
