import type { IncomingMessage, ServerResponse } from 'node:http'
import { type ApiError, invalidRequest, payloadTooLarge } from '../../core/api-error.js'
import type { RouteUrl } from '../../core/operations/routing.js'
import { quote } from '../../core/quote-value.js'
import type { SimRequest } from '../../core/reply.js'

export { sendError, writeReply } from './write-reply.js'

/**
 * Node's side of every HTTP answer, shared by the front door, the health
 * check and the admin API: reading a request (target, URL, headers, body),
 * writing a `Reply` (paced or not) and the request log.
 */

/** Where the admin API lives. */
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
  if (target?.startsWith('/') === true && !target.startsWith('//')) return null
  const shown = quote(target ?? '')
  return invalidRequest(`The request target ${shown} is not a path: this server is not a proxy; send the path, such as /v1/store/orders.`)
}

/** The origin routing sees on every request: it compares it with a pinned base's. */
const REQUEST_ORIGIN = 'http://localhost'

/** The path of a request-target, without its query or fragment: what a 404 names. */
export function pathOf(target: string): string {
  const end = target.search(/[?#]/)
  return end === -1 ? target : target.slice(0, end)
}

/**
 * What routing reads of a request-target (checked by `targetError`): its path as sent, not as a `URL`
 * would rewrite it (dot segments, a backslash), for the core's one path rule to read (api-path.ts).
 */
export function routeUrl(target: string): RouteUrl {
  return { origin: REQUEST_ORIGIN, pathname: pathOf(target) }
}

/**
 * A header's value, repeated ones joined with ", " as Fetch joins them
 * (`req.headers` keeps only the first Authorization). Read from the raw
 * lines: a request reads two or three headers, and building Node's header
 * object for each request showed in the list's req/s (docs/performance.md).
 */
export function headerOf(req: IncomingMessage, name: string): string | undefined {
  const wanted = name.toLowerCase()
  const raw = req.rawHeaders
  let value: string | undefined
  for (let index = 0; index < raw.length; index += 2) {
    const line = raw[index] as string
    if (line.length === wanted.length && line.toLowerCase() === wanted) {
      const next = raw[index + 1] as string
      value = value === undefined ? next : `${value}, ${next}`
    }
  }
  return value
}

/** A header's first value: what Node's `req.headers` keeps of a repeated Host or Content-Length. */
export function firstHeader(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders
  for (let index = 0; index < raw.length; index += 2) {
    const line = raw[index] as string
    if (line.length === name.length && line.toLowerCase() === name) return raw[index + 1]
  }
  return undefined
}

/**
 * What the operations read of a Node request whose body was read and bounded
 * before. `signal` (an AbortController and a close listener) is made only
 * when a latency or a hang asks for it: one for every request cost more than
 * half the list's req/s (npm run bench:ab).
 */
class NodeRequest implements SimRequest {
  readonly method: string
  readonly target: string
  #controller: AbortController | undefined

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly bytes: Buffer | null,
  ) {
    this.method = req.method ?? 'GET'
    this.target = req.url ?? '/'
  }

  header(name: string): string | null {
    return headerOf(this.req, name) ?? null
  }

  /** Aborts when the client leaves before its answer is sent: a latency or a hang ends then. */
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

  bodyExceeds(limit: number): boolean {
    return (this.bytes?.length ?? 0) > limit
  }

  *headerPairs(): Iterable<readonly [string, string]> {
    const raw = this.req.rawHeaders
    for (let index = 0; index < raw.length; index += 2) yield [raw[index] as string, raw[index + 1] as string]
  }

  async body(): Promise<Uint8Array | null> {
    return this.bytes
  }
}

/** What the operations read of a Node request whose body (null: none) was read and bounded. */
export function nodeRequest(req: IncomingMessage, res: ServerResponse, body: Buffer | null): SimRequest {
  return new NodeRequest(req, res, body)
}

/** Whether a request comes with a body to read: a Content-Length (0 included) or a Transfer-Encoding. */
export function hasBody(req: IncomingMessage): boolean {
  return firstHeader(req, 'content-length') !== undefined || firstHeader(req, 'transfer-encoding') !== undefined
}

/**
 * Reads a request's body, whatever its type, refusing one over `limit`
 * bytes with 413 (one declared larger is not read at all: Node discards the
 * rest once the answer is sent). `done` gets the body, or the error to answer.
 */
export function readBody(req: IncomingMessage, limit: number, done: (error: ApiError | null, body: Buffer) => void): void {
  const declared = firstHeader(req, 'content-length')
  if (declared !== undefined && Number(declared) > limit) {
    done(payloadTooLarge(limit), Buffer.alloc(0))
    return
  }
  const chunks: Buffer[] = []
  let size = 0
  let finished = false
  const finish = (error: ApiError | null) => {
    if (finished) return
    finished = true
    req.off('data', onData)
    done(error, error === null ? Buffer.concat(chunks, size) : Buffer.alloc(0))
  }
  const onData = (chunk: Buffer) => {
    size += chunk.length
    if (size > limit) finish(payloadTooLarge(limit))
    else chunks.push(chunk)
  }
  req.on('data', onData)
  req.once('end', () => finish(null))
  req.once('error', () => finish(invalidRequest('The request body could not be read.')))
}

/** Logs one line per answered request once it is sent: `GET /v1/store/orders 200 1.2ms`. */
export function logWhenFinished(log: (line: string) => void, req: IncomingMessage, res: ServerResponse): void {
  const started = performance.now()
  // Read now: express rewrites req.url inside a mounted router (/__sim/reset would be logged as /reset).
  const target = req.url
  res.once('finish', () => log(`${req.method} ${target} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`))
}
