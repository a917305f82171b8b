import type { RequestListener } from 'node:http'
import express, { type ErrorRequestHandler } from 'express'
import { allowedMethods } from '../../core/admin/admin-table.js'
import { ApiError, invalidRequest } from '../../core/api-error.js'
import { ADMIN_METHODS, adminCorsHeaders, preflightHeaders } from '../../core/cors.js'
import type { ErrorReporter } from '../../core/dispatch/error-reporter.js'
import { ErrorCode } from '../../core/error-codes.js'
import { internalsOf } from '../../core/simulator/internals.js'
import type { SimulatorCore } from '../../core/simulator/types.js'
import { ADMIN_PREFIX, hasBody, headerOf, readBody, sendError, writeReply } from '../node/node-edge.js'
import { createAdminOriginCheck } from './admin/admin-origin.js'
import { type AdminRouterOptions, createAdminRouter } from './admin/admin-router.js'

export interface AdminAppOptions extends AdminRouterOptions {
  /** Origins of web pages allowed to call the admin API besides loopback origins and the server's own. */
  adminOrigins?: readonly string[] | undefined
  /** Told of an unexpected error (a simulator bug) that was answered with 500. */
  report: ErrorReporter
}

/**
 * What express itself refuses as the client's fault (a path parameter with
 * bad percent-encoding: 400), as an Error body; null for anything else.
 */
function clientError(error: unknown): ApiError | null {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined
  if (typeof status !== 'number' || status < 400 || status > 499) return null
  if (status === 400)
    return invalidRequest(error instanceof URIError ? 'The request path has a bad percent-encoding.' : 'The request is not valid.')
  return new ApiError(status, ErrorCode.NotFound, 'The request is not valid.')
}

/**
 * The admin API as an express app, for the requests under `ADMIN_PREFIX` the front door hands it (the Host
 * and target already checked): the origin guard before anything else. JSON errors, never express's HTML page.
 */
export function createAdminApp(sim: SimulatorCore, options: AdminAppOptions): RequestListener {
  const { bodyLimit } = internalsOf(sim)
  const app = express()
  app.disable('x-powered-by')
  app.set('etag', false)
  // The admin API reads its query itself (readQuery), and parsing costs every request.
  app.set('query parser', false)
  const originCheck = createAdminOriginCheck(options.adminOrigins)
  app.use((req, _res, next) => {
    const refused = originCheck({ origin: req.headers.origin, secFetchSite: headerOf(req, 'sec-fetch-site'), host: req.headers.host })
    next(refused ?? undefined)
  })
  app.use((req, res, next) => {
    const headers = adminCorsHeaders(req.headers.origin)
    for (const name in headers) res.setHeader(name, headers[name] as string)
    if (req.method !== 'OPTIONS') next()
    else
      writeReply(res, {
        status: 204,
        headers: preflightHeaders(ADMIN_METHODS, headerOf(req, 'access-control-request-headers')),
        body: null,
      })
  })
  // Every body is read here, whatever its type, so that one limit applies to all.
  app.use((req, _res, next) => {
    if (!hasBody(req)) next()
    else
      readBody(req, bodyLimit, (error, body) => {
        if (error === null) req.body = body
        next(error ?? undefined)
      })
  })
  app.use(ADMIN_PREFIX, createAdminRouter(sim, options))
  // Past the router: the 404 of an unknown admin path, the 405 of a known one with another method (Allow from the table).
  app.use(ADMIN_PREFIX, (req, res) => {
    const methods = allowedMethods(req.path)
    sendError(
      res,
      methods === undefined
        ? new ApiError(404, ErrorCode.NotFound, `No admin endpoint at ${req.method} /__sim${req.path}. GET /__sim lists them.`)
        : new ApiError(405, ErrorCode.MethodNotAllowed, `${req.method} is not allowed on /__sim${req.path}; use ${methods}.`, {
            Allow: methods,
          }),
    )
  })
  const onError: ErrorRequestHandler = (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy()
      return
    }
    const answer = error instanceof ApiError ? error : clientError(error)
    if (answer === null) options.report(error, { method: req.method, target: req.originalUrl })
    sendError(res, answer ?? error)
  }
  app.use(onError)
  return app
}
