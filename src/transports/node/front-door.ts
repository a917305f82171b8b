import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { ApiError, errorReply } from '../../core/api-error.js'
import { ANY_METHOD, apiCorsHeaders, preflightHeaders } from '../../core/cors.js'
import type { ErrorReporter } from '../../core/dispatch/error-reporter.js'
import { ErrorCode } from '../../core/error-codes.js'
import type { Reply } from '../../core/reply.js'
import type { SimulatorInternals } from '../../core/simulator/internals.js'
import { type Arrival, arrival, elapsedSince } from '../../core/state/journal.js'
import { isHealthPath } from './health.js'
import {
  ADMIN_PREFIX,
  hasBody,
  firstHeader,
  headerOf,
  isAdminPath,
  logWhenFinished,
  nodeRequest,
  pathOf,
  readBody,
  routeUrl,
  sendError,
  targetError,
  writeReply,
} from './node-edge.js'

export interface FrontDoorOptions {
  /** The simulator the API is answered from: its dispatcher, base, body limit and own journal. */
  internals: Pick<SimulatorInternals, 'dispatcher' | 'base' | 'bodyLimit' | 'journal'>
  /** The API's base path as the server was given it, for the 404 of a path outside it. */
  basePath: string
  /** Answers every request under `ADMIN_PREFIX`, which wins over the API's base; null when the admin API is off. */
  admin: RequestListener | null
  log?: ((line: string) => void) | undefined
  /** Told of an unexpected error (a simulator bug) that was answered with 500. */
  report: ErrorReporter
  /** Checks the Host header first: a refused one is answered before anything else runs. */
  hostCheck: (header: string | undefined) => ApiError | null
  /** Answers `GET /__sim/health`, before the Host check and whether the admin API is on or not. */
  health: RequestListener
}

/** One request on its way through the front door. */
interface Exchange {
  req: IncomingMessage
  res: ServerResponse
  /** The CORS headers its answer carries. */
  cors: Readonly<Record<string, string>>
  /** When it arrived, for the journal; null until needed (a bodiless request answered at once needs none). */
  since: Arrival | null
}

/**
 * The HTTP server's request listener, the standalone server's and the
 * express app's alike. Health first (any Host), then the Host and target
 * checks; the admin API goes to `admin`; every other request, whatever its
 * method, headers or body, is answered here: a CORS preflight directly, the
 * rest by the dispatcher every transport shares (a body is read and bounded
 * first), and a path outside the API with a JSON 404. No Fetch `Request` or
 * `Response` is built.
 */
export function createFrontDoor(options: FrontDoorOptions): RequestListener {
  const { internals, admin, log, report, hostCheck, health } = options
  const { dispatcher, base, bodyLimit, journal } = internals
  const everyPathIsApi = base.origin === null && base.path === ''
  const where = `The simulated API is under ${options.basePath}${admin === null ? '' : `; the admin API is under ${ADMIN_PREFIX}`}.`

  /** What the front door answers itself (a 404 outside the API, a body refused): recorded in the simulator's own journal. */
  function answerOwn({ req, res, cors, since }: Exchange, error: unknown): void {
    const reply = errorReply(error)
    const { time, started } = since ?? arrival()
    const path = req.url ?? ''
    journal.record({
      time,
      method: req.method ?? '',
      path,
      status: reply.status,
      duration: elapsedSince(started),
      operation: null,
      orderId: null,
    })
    writeReply(res, reply, cors)
  }

  /** Writes the dispatcher's answer; a HEAD gets its status and headers only, as Fetch's `Response` would have it. */
  function send({ req, res, cors }: Exchange, reply: Reply): void {
    const unsent = writeReply(res, req.method === 'HEAD' ? { ...reply, body: null } : reply, cors)
    // Node refused the reply (answered 500 instead): a bug to report; a forwarded one's 502 is the target's.
    if (unsent !== null && reply.setCookie === undefined) report(unsent, { method: req.method ?? '', target: req.url ?? '' })
  }

  function dispatch(exchange: Exchange, body: Buffer | null): void {
    const { req, res, cors } = exchange
    const target = req.url as string
    const url = routeUrl(target)
    let reply: ReturnType<typeof dispatcher.route>
    try {
      const request = nodeRequest(req, res, body)
      // Under a bare "/" the dispatcher leaves unknown paths to others (a process's other requests, in
      // process); this server has no others: its routes, its proxy or its 404 answer them.
      reply = dispatcher.route(request, url) ?? (everyPathIsApi ? dispatcher.unknown(request, url) : null)
    } catch (error) {
      // A bug of the simulator: its 500 says nothing, the report says what.
      if (!(error instanceof ApiError)) report(error, { method: req.method ?? '', target })
      answerOwn(exchange, error)
      return
    }
    if (reply === null)
      answerOwn(exchange, new ApiError(404, ErrorCode.NotFound, `No operation at ${req.method} ${pathOf(target)}. ${where}`))
    else if (!(reply instanceof Promise)) send(exchange, reply)
    else {
      reply.then(
        (answer) => send(exchange, answer),
        (error: unknown) => {
          report(error, { method: req.method ?? '', target })
          if (!res.headersSent) writeReply(res, errorReply(error), cors)
        },
      )
    }
  }

  /** A CORS preflight (any OPTIONS): the methods the path answers in the state's table, or any. Not journaled: it reaches no operation. */
  function preflight({ req, res, cors }: Exchange): void {
    const allowed = dispatcher.allowed(nodeRequest(req, res, null), routeUrl(req.url as string))
    const methods = allowed.length === 0 ? ANY_METHOD : allowed.join(', ')
    writeReply(res, { status: 204, headers: preflightHeaders(methods, headerOf(req, 'access-control-request-headers')), body: null }, cors)
  }

  return (req, res) => {
    if (log !== undefined) logWhenFinished(log, req, res)
    if (isHealthPath(req.url)) {
      health(req, res)
      return
    }
    // Node's req.headers keeps the first Host of several, as this does.
    const refused = hostCheck(firstHeader(req, 'host')) ?? targetError(req.url)
    if (refused !== null) {
      sendError(res, refused)
      return
    }
    if (admin !== null && isAdminPath(req.url as string)) {
      admin(req, res)
      return
    }
    const exchange: Exchange = { req, res, cors: apiCorsHeaders(headerOf(req, 'origin')), since: null }
    if (req.method === 'OPTIONS') preflight(exchange)
    else if (!hasBody(req)) dispatch(exchange, null)
    else {
      exchange.since = arrival()
      readBody(req, bodyLimit, (error, body) => (error === null ? dispatch(exchange, body) : answerOwn(exchange, error)))
    }
  }
}
