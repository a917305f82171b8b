import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorReply, invalidRequest, type ApiError } from '../../core/api-error.js'
import { EXPOSED_HEADERS } from '../../core/cors.js'
import { PACE_PIECES, pacedPieces, type Reply, type SimRequest } from '../../core/reply.js'
import { quote } from '../../core/quote-value.js'
import type { RouteUrl } from '../../core/operations/routing.js'

/**
 * Node's side of every HTTP answer, shared by the front door and the express
 * app: reading a request (target, URL, headers), writing a `Reply` (paced or
 * not), CORS and the request log.
 */

/** Where the standalone server's admin API lives. */
export const ADMIN_PREFIX = '/__sim'

/** Whether a request-target is for the admin API. */
export function isAdminPath(url: string): boolean {
  return (
    url.startsWith(ADMIN_PREFIX) &&
    (url.length === ADMIN_PREFIX.length || url[ADMIN_PREFIX.length] === '/' || url[ADMIN_PREFIX.length] === '?')
  )
}

/**
 * The request-target, checked: only origin-form (a path) is served. The
 * absolute form is for proxies, and the asterisk form for OPTIONS to a
 * whole server; routing never reads the Host header.
 */
export function targetError(target: string | undefined): ApiError | null {
  if (target !== undefined && target.charCodeAt(0) === 47 /* "/" */ && !target.startsWith('//')) return null
  const shown = quote(target ?? '')
  return invalidRequest(`The request target ${shown} is not a path: this server is not a proxy; send the path, such as /v1/store/orders.`)
}

/** The URL of a request, from its target alone (checked by `targetError`). */
export function requestUrl(target: string): URL {
  // One string, not (target, base): a base URL is parsed anew on every call.
  return new URL(`http://localhost${target}`)
}

/** The URL of a request's path without its query, which routing never reads: a long query is not copied. */
function pathUrl(target: string): URL {
  const query = target.indexOf('?')
  return requestUrl(query === -1 ? target : target.slice(0, query))
}

/** The origin `requestUrl` gives every request: routing compares it with a pinned base's. */
const REQUEST_ORIGIN = 'http://localhost'

/** Whether a character code may stand in a path that a `URL` would leave as it is: letters, digits, "/", "-", "_", "~". */
function plainPathCode(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 47 && code <= 57) || code === 45 || code === 95 || code === 126
  )
}

/**
 * What routing reads of a request-target (checked by `targetError`): read off
 * the path itself when it is plain (no dot, escape or other character a `URL`
 * would rewrite), else from a parsed `URL`. Most requests parse none.
 */
export function routeUrl(target: string): RouteUrl {
  const query = target.indexOf('?')
  const end = query === -1 ? target.length : query
  for (let index = 0; index < end; index++) if (!plainPathCode(target.charCodeAt(index))) return pathUrl(target)
  return { origin: REQUEST_ORIGIN, pathname: query === -1 ? target : target.slice(0, query) }
}

const lowerCode = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code)

/** Whether two header names are the same, ignoring ASCII case, compared without making lower-cased copies. */
function isHeaderName(name: string, wanted: string): boolean {
  if (name.length !== wanted.length) return false
  for (let index = 0; index < name.length; index++) {
    if (lowerCode(name.charCodeAt(index)) !== lowerCode(wanted.charCodeAt(index))) return false
  }
  return true
}

/** A header's value from the raw list, repeated ones joined with ", " as Fetch joins them (Node keeps only the first Authorization). */
export function rawHeader(raw: readonly string[], name: string): string | null {
  let value: string | null = null
  for (let index = 0; index < raw.length; index += 2) {
    if (isHeaderName(raw[index] as string, name)) {
      const next = raw[index + 1] as string
      value = value === null ? next : `${value}, ${next}`
    }
  }
  return value
}

/**
 * The first value of a header Node keeps one of (Host, Content-Length), as
 * `req.headers` has it: read off the raw list, so that the bodiless API path
 * never makes Node build `req.headers`.
 */
export function firstRawHeader(raw: readonly string[], name: string): string | undefined {
  for (let index = 0; index < raw.length; index += 2) if (isHeaderName(raw[index] as string, name)) return raw[index + 1]
  return undefined
}

/** Every header of the raw list as Fetch `Headers`, which join repeated ones the same way. */
export function fetchHeaders(raw: readonly string[]): Headers {
  const headers = new Headers()
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index] as string, raw[index + 1] as string)
  return headers
}

/**
 * What the operations read of a Node request. A class rather than an object
 * literal with a getter: V8 gives each such literal a map of its own, and
 * under load those maps filled the old space (docs/performance.md).
 */
export class NodeRequest implements SimRequest {
  readonly method: string
  readonly target: string
  #controller: AbortController | undefined

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly bodyLength = 0,
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

  /** The body was read (and bounded) before the request got here. */
  bodyExceeds(limit: number): boolean {
    return this.bodyLength > limit
  }
}

/** Writes the pieces of a paced body one every `paceMs / PACE_PIECES`, stopping if the client leaves. */
function writePaced(res: ServerResponse, body: Uint8Array, paceMs: number): void {
  const pieces = pacedPieces(body)
  const next = () => {
    if (res.destroyed) return
    res.write(pieces.shift() as Uint8Array)
    if (pieces.length === 0) res.end()
    else setTimeout(next, paceMs / PACE_PIECES)
  }
  setTimeout(next, paceMs / PACE_PIECES)
}

/** Writes an answer of the operations to Node's response. */
export function sendReply(res: ServerResponse, reply: Reply): void {
  if (reply.networkError !== undefined) {
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

/** Sends any thrown value as an Error body (an `ApiError` as itself, anything else as a 500). */
export function sendError(res: ServerResponse, error: unknown): void {
  sendReply(res, errorReply(error))
}

/**
 * The CORS headers every answer carries, so that a frontend served from
 * another origin can read it: the origin is reflected (credentialed requests
 * work too), or `*` when there is none. An admin answer names only an origin
 * the admin guard let through, and never allows credentials.
 */
export function setCorsHeaders(req: IncomingMessage, res: ServerResponse, admin = false): void {
  const { origin } = req.headers
  if (origin !== undefined) {
    res.setHeader('Access-Control-Allow-Origin', origin)
    if (!admin) res.setHeader('Access-Control-Allow-Credentials', 'true')
    res.setHeader('Vary', 'Origin')
  } else if (!admin) {
    res.setHeader('Access-Control-Allow-Origin', '*')
  }
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS)
}

/** Logs one line per answered request once it is sent: `GET /v1/store/orders 200 1.2ms`. */
export function logWhenFinished(log: (line: string) => void, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now()
  // Read now: express rewrites req.url inside a mounted router (/__sim/reset would be logged as /reset).
  const target = req.url
  res.once('finish', () => log(`${req.method} ${target} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`))
}
