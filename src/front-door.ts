import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { ApiError, errorReply } from './api-error.js'
import { ErrorCode } from './error-codes.js'
import type { Reply, SimRequest } from './operations.js'
import type { Simulator } from './simulator.js'

/** Where the standalone server's admin API lives. */
export const ADMIN_PREFIX = '/__sim'

const EXPOSED_HEADERS = 'Deprecation, Sunset, Link, WWW-Authenticate, Allow, Retry-After'

/**
 * The CORS headers every answer carries, so that a frontend served from
 * another origin can read it: the origin is reflected (credentialed requests
 * work too), or `*` when there is none. An admin answer names only an origin
 * the admin guard let through, and never allows credentials.
 */
export function setCorsHeaders(req: IncomingMessage, res: ServerResponse, admin = false): void {
  const { origin } = req.headers
  if (admin) {
    if (origin !== undefined) {
      res.setHeader('Access-Control-Allow-Origin', origin)
      res.setHeader('Vary', 'Origin')
    }
  } else {
    res.setHeader('Access-Control-Allow-Origin', origin ?? '*')
    if (origin !== undefined) {
      res.setHeader('Access-Control-Allow-Credentials', 'true')
      res.setHeader('Vary', 'Origin')
    }
  }
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS)
}

/**
 * The request-target, checked: only origin-form (a path) is served. The
 * absolute form is for proxies, and the asterisk form for OPTIONS to a
 * whole server; routing never reads the Host header.
 */
export function targetError(target: string | undefined): ApiError | null {
  if (target !== undefined && target.charCodeAt(0) === 47 /* "/" */ && !target.startsWith('//')) return null
  return new ApiError(400, ErrorCode.InvalidRequest, `The request target ${JSON.stringify((target ?? '').slice(0, 80))} is not a path: this server is not a proxy; send the path, such as /v1/store/orders.`)
}

/** The URL of a request, from its target alone (checked by `targetError`). */
export function requestUrl(target: string): URL {
  // One string, not (target, base): a base URL is parsed anew on every call.
  return new URL(`http://localhost${target}`)
}

/**
 * The URL of a request's path, without its query: what routing reads. A long
 * query string is not copied into a URL only to be ignored (the service
 * defines no query parameters).
 */
export function pathUrl(target: string): URL {
  const query = target.indexOf('?')
  return requestUrl(query === -1 ? target : target.slice(0, query))
}

/** Whether a request is for the admin API. */
export function isAdminPath(url: string): boolean {
  return url.startsWith(ADMIN_PREFIX) && (url.length === ADMIN_PREFIX.length || url[ADMIN_PREFIX.length] === '/' || url[ADMIN_PREFIX.length] === '?')
}

/** Logs one line per answered request once it is sent: `GET /v1/store/orders 200 1.2ms`. */
export function logWhenFinished(log: (line: string) => void, req: IncomingMessage, res: ServerResponse): void {
  const started = process.hrtime.bigint()
  res.once('finish', () => {
    const ms = Number(process.hrtime.bigint() - started) / 1e6
    log(`${req.method} ${req.url} ${res.statusCode} ${ms.toFixed(1)}ms`)
  })
}

/** A header's value from the raw list, repeated ones joined with ", " as Fetch joins them (Node keeps only the first Authorization). */
function rawHeader(raw: readonly string[], name: string): string | null {
  const wanted = name.toLowerCase()
  let value: string | null = null
  for (let index = 0; index < raw.length; index += 2) {
    const key = raw[index] as string
    if (key.length === wanted.length && key.toLowerCase() === wanted) {
      const next = raw[index + 1] as string
      value = value === null ? next : `${value}, ${next}`
    }
  }
  return value
}

/**
 * What the operations read of a bodiless Node request. A class rather than
 * an object literal with a getter: V8 gives each such literal a map of its
 * own, and under load those maps filled the old space (p99 went from 2 to
 * 12 ms in the bench).
 */
class NodeRequest implements SimRequest {
  readonly method: string
  readonly target: string
  #controller: AbortController | undefined

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    this.method = req.method ?? 'GET'
    // As sent: no copy of a long query string is made for the journal.
    this.target = req.url as string
  }

  header(name: string): string | null {
    return rawHeader(this.req.rawHeaders, name)
  }

  /** Made only when a latency or a hang asks for it: most requests never wait. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      const controller = new AbortController()
      this.#controller = controller
      const { res } = this
      res.once('close', () => {
        if (!res.writableFinished) controller.abort()
      })
    }
    return this.#controller.signal
  }

  bodyExceeds(): boolean {
    return false
  }
}

/** Writes the body in ten pieces spread over `durationMs`, stopping if the client leaves. */
function writePaced(res: ServerResponse, body: Uint8Array, durationMs: number): void {
  const pieces = 10
  const size = Math.ceil(body.length / pieces)
  let index = 0
  const next = () => {
    if (res.destroyed) return
    res.write(body.subarray(index * size, (index + 1) * size))
    index++
    if (index * size >= body.length) res.end()
    else setTimeout(next, durationMs / pieces)
  }
  setTimeout(next, durationMs / pieces)
}

/** Writes an answer of the operations to Node's response. */
export function sendReply(res: ServerResponse, reply: Reply): void {
  if (reply.networkError) {
    // What a client sees of a network failure: the connection drops.
    res.socket?.destroy()
    return
  }
  res.statusCode = reply.status
  for (const name in reply.headers) res.setHeader(name, reply.headers[name] as string)
  if (reply.body === null) {
    res.end()
    return
  }
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body
  res.setHeader('Content-Length', body.byteLength)
  if (reply.paceMs !== undefined && body.byteLength > 0) writePaced(res, body, reply.paceMs)
  else res.end(body)
}

/** The requests the front door leaves to express: preflights, HEAD, anything with a body, the admin API. */
function forExpress(req: IncomingMessage, admin: boolean): boolean {
  const { method, url = '' } = req
  if (method === 'OPTIONS' || method === 'HEAD') return true
  const length = req.headers['content-length']
  if ((length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined) return true
  return admin && isAdminPath(url)
}

export interface FrontDoorOptions {
  sim: Simulator
  /** Takes every request that is not the API's, and the API's with a body, HEAD or OPTIONS. */
  app: RequestListener
  /** Whether the admin API is on: under `ADMIN_PREFIX`, it wins over the API's base, as in the express app. */
  admin: boolean
  log?: (line: string) => void
  /** Receives an unexpected error (a simulator bug) that was answered with 500. */
  onError?: (error: unknown) => void
  /** Checks the Host header first: a refused one is answered before anything else runs. */
  hostCheck: (header: string | undefined) => ApiError | null
}

/**
 * The standalone server's request listener. A bodiless request to the API
 * goes straight to the simulator's operations, the ones msw's handlers call,
 * and its answer is written from plain values: no Fetch `Request` or
 * `Response` is built, no express middleware runs. That is what the bench
 * measures against the stock msw server. Everything else goes to the
 * express app, which answers the API too (through msw), identically.
 */
export function createFrontDoor({ sim, app, admin, log, onError, hostCheck }: FrontDoorOptions): RequestListener {
  return (req, res) => {
    const refused = hostCheck(req.headers.host) ?? targetError(req.url)
    if (refused !== null) {
      if (log !== undefined) logWhenFinished(log, req, res)
      sendReply(res, errorReply(refused))
      return
    }
    if (forExpress(req, admin)) {
      app(req, res)
      return
    }
    let url: URL
    try {
      url = pathUrl(req.url as string)
    } catch {
      app(req, res)
      return
    }
    const reply = sim.route(new NodeRequest(req, res), url)
    if (reply === null) {
      app(req, res)
      return
    }
    if (log !== undefined) logWhenFinished(log, req, res)
    setCorsHeaders(req, res)
    reply.then(
      (answer) => sendReply(res, answer),
      (error: unknown) => {
        onError?.(error)
        if (!res.headersSent) sendReply(res, errorReply(error))
      },
    )
  }
}
