import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { ApiError } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
import type { SimulatorView } from '../../../core/simulator/types.js'
import { sendError } from '../../node/node-edge.js'
import { quote } from '../../../core/quote-value.js'

/**
 * Runs an admin action; an `ApiError` it throws (a 400 of its input, mostly)
 * becomes the answer, also when it rejects: a change of the store settles later.
 */
export function action(run: (req: ExpressRequest, res: ExpressResponse, view: SimulatorView) => void | Promise<void>): RequestHandler {
  return (req, res, next) => {
    const refuse = (error: unknown) => {
      if (error instanceof ApiError) sendError(res, error)
      else next(error)
    }
    try {
      run(req, res, res.locals['view'] as SimulatorView)?.catch(refuse)
    } catch (error) {
      refuse(error)
    }
  }
}

/** 204 when something was removed, else the 404 naming the id and where such things are listed. */
export function sendRemoved(res: ExpressResponse, removed: boolean, what: 'fault' | 'session', id: unknown): void {
  if (removed) {
    res.status(204).end()
    return
  }
  const message = `No ${what} has the id ${quote(id)}; GET /__sim/${what}s lists them.`
  sendError(res, new ApiError(404, ErrorCode.NotFound, message))
}
