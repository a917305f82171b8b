import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { ApiError } from '../../../core/api-error.js'
import type { SimulatorView } from '../../../core/simulator/types.js'
import { sendError } from '../../node/node-edge.js'

/** Runs an admin action; an `ApiError` it throws (a 400 of its input, mostly) becomes the answer. */
export function action(run: (req: ExpressRequest, res: ExpressResponse, view: SimulatorView) => void): RequestHandler {
  return (req, res) => {
    try {
      run(req, res, res.locals['view'] as SimulatorView)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      sendError(res, error)
    }
  }
}
