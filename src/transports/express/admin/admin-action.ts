import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from 'express'
import { ApiError } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
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

/** The form of `action` for a change the store makes asynchronously: its refusal is answered when it settles. */
export function asyncAction(run: (req: ExpressRequest, res: ExpressResponse, view: SimulatorView) => Promise<void>): RequestHandler {
  return (req, res, next) => {
    let running: Promise<void>
    try {
      running = run(req, res, res.locals['view'] as SimulatorView)
    } catch (error) {
      running = Promise.reject(error)
    }
    running.catch((error: unknown) => {
      if (error instanceof ApiError) sendError(res, error)
      else next(error)
    })
  }
}

/** 204 when something was removed, else the 404 naming the id and where such things are listed. */
export function sendRemoved(res: ExpressResponse, removed: boolean, what: 'fault' | 'session', id: unknown): void {
  if (removed) {
    res.status(204).end()
    return
  }
  const message = `No ${what} has the id ${JSON.stringify(id)}; GET /__sim/${what}s lists them.`
  sendError(res, new ApiError(404, ErrorCode.NotFound, message))
}
