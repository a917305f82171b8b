import type { Request as ExpressRequest, RequestHandler } from 'express'
import { ApiError, invalidRequest } from '../../core/api-error.js'
import { ErrorCode } from '../../core/error-codes.js'
import { matchRoute, parseApiBase, type ApiBase } from '../../core/operations/routing.js'
import { ADMIN_PREFIX, isAdminPath, setCorsHeaders } from '../node/node-edge.js'

const ANY_METHOD = 'GET, POST, PUT, PATCH, DELETE'
const ADMIN_METHODS = 'GET, POST, PUT, DELETE'

/**
 * What express itself refuses as the client's fault (a path parameter with
 * bad percent-encoding: 400), as an Error body; null for anything else.
 */
export function clientError(error: unknown): ApiError | null {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined
  if (typeof status !== 'number' || status < 400 || status > 499) return null
  if (status === 400)
    return invalidRequest(error instanceof URIError ? 'The request path has a bad percent-encoding.' : 'The request is not valid.')
  return new ApiError(status, ErrorCode.NotFound, 'The request is not valid.')
}

function allowedMethods(req: ExpressRequest, base: ApiBase, admin: boolean): string {
  const url = new URL(req.originalUrl, 'http://simulator')
  const match = matchRoute(url, base)
  if (match !== null) return match.operation.method
  if (admin && (url.pathname === ADMIN_PREFIX || url.pathname.startsWith(`${ADMIN_PREFIX}/`))) return ADMIN_METHODS
  return ANY_METHOD
}

/**
 * CORS for frontends served from another origin: every answer carries
 * `Access-Control-Allow-Origin`, and any OPTIONS request is answered here as
 * a preflight, before any handler sees it.
 */
export function cors(basePath: string, admin: boolean): RequestHandler {
  const base = parseApiBase(basePath)
  return (req, res, next) => {
    setCorsHeaders(req, res, admin && isAdminPath(req.originalUrl))
    if (req.method !== 'OPTIONS') {
      next()
      return
    }
    const requested = (req.headers['access-control-request-headers'] ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
    const allowHeaders = ['Authorization', 'Content-Type', ...requested.filter((name) => !/^(authorization|content-type)$/i.test(name))]
    const methods = allowedMethods(req, base, admin)
    res.setHeader('Access-Control-Allow-Methods', methods)
    res.setHeader('Access-Control-Allow-Headers', allowHeaders.join(', '))
    res.setHeader('Access-Control-Max-Age', '600')
    res.setHeader('Allow', `${methods}, OPTIONS`)
    res.status(204).end()
  }
}
