import type { RequestHandler } from 'express'
import { allowedMethods } from '../../../core/admin/admin-table.js'
import { ApiError } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { sendError } from '../../node/node-edge.js'

/** The 404 of an unknown admin path, the 405 of a known one with the wrong method (Allow from the admin table). */
export const adminFallback: RequestHandler = (req, res) => {
  const methods = allowedMethods(req.path)
  sendError(
    res,
    methods === undefined
      ? new ApiError(404, ErrorCode.NotFound, `No admin endpoint at ${req.method} /__sim${req.path}. GET /__sim lists them.`)
      : new ApiError(405, ErrorCode.MethodNotAllowed, `${req.method} is not allowed on /__sim${req.path}; use ${methods}.`, {
          Allow: methods,
        }),
  )
}
