import type { IncomingMessage, RequestListener } from 'node:http'
import { errorReply, type ApiError } from '../../core/api-error.js'
import type { Dispatcher } from '../../core/dispatch/dispatcher.js'
import type { ErrorReporter } from '../../core/dispatch/unexpected-error.js'
import { isHealthPath } from './health.js'
import type { RouteUrl } from '../../core/operations/routing.js'
import { firstRawHeader, isAdminPath, logWhenFinished, NodeRequest, routeUrl, sendError, targetError } from './node-edge.js'
import { headMemo, writeReply } from './write-reply.js'

/** The requests the front door leaves to express: preflights, HEAD, anything with a body, the admin API. */
function forExpress(req: IncomingMessage, admin: boolean): boolean {
  const { method, url = '' } = req
  if (method === 'OPTIONS' || method === 'HEAD') return true
  const { rawHeaders } = req
  const length = firstRawHeader(rawHeaders, 'content-length')
  if ((length !== undefined && length !== '0') || firstRawHeader(rawHeaders, 'transfer-encoding') !== undefined) return true
  return admin && isAdminPath(url)
}

export interface FrontDoorOptions {
  dispatcher: Dispatcher
  /** Takes every request that is not the API's, and the API's with a body, HEAD or OPTIONS. */
  app: RequestListener
  /** Whether the admin API is on: under `ADMIN_PREFIX`, it wins over the API's base, as in the express app. */
  admin: boolean
  log?: ((line: string) => void) | undefined
  /** Told of an unexpected error (a simulator bug) that was answered with 500. */
  report: ErrorReporter
  /** Checks the Host header first: a refused one is answered before anything else runs. */
  hostCheck: (header: string | undefined) => ApiError | null
  /** Answers `GET /__sim/health`, before the Host check and whether the admin API is on or not. */
  health: RequestListener
}

/**
 * The standalone server's request listener. A bodiless request to the API
 * goes straight to the dispatcher, the one msw's handlers call, and its
 * answer is written from plain values: no Fetch `Request` or `Response` is
 * built, no express middleware runs. Everything else goes to the express
 * app, which answers the API too (through msw), identically.
 */
export function createFrontDoor({ dispatcher, app, admin, log, report, hostCheck, health }: FrontDoorOptions): RequestListener {
  const memo = headMemo()
  return (req, res) => {
    if (isHealthPath(req.url)) {
      if (log !== undefined) logWhenFinished(log, req, res)
      health(req, res)
      return
    }
    const refused = hostCheck(firstRawHeader(req.rawHeaders, 'host')) ?? targetError(req.url)
    if (refused !== null) {
      if (log !== undefined) logWhenFinished(log, req, res)
      sendError(res, refused)
      return
    }
    if (forExpress(req, admin)) {
      app(req, res)
      return
    }
    let url: RouteUrl
    try {
      url = routeUrl(req.url as string)
    } catch {
      app(req, res)
      return
    }
    const reply = dispatcher.route(new NodeRequest(req, res), url)
    if (reply === null) {
      app(req, res)
      return
    }
    if (log !== undefined) logWhenFinished(log, req, res)
    if (!(reply instanceof Promise)) {
      writeReply(req, res, reply, memo)
      return
    }
    reply.then(
      (answer) => writeReply(req, res, answer, memo),
      (error: unknown) => {
        report(error, { method: req.method ?? '', target: req.url ?? '' })
        if (!res.headersSent) writeReply(req, res, errorReply(error))
      },
    )
  }
}
