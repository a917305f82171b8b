import type { RequestHandler } from 'express'
import type { AdminOperation } from '../../../core/admin/admin-operation.js'
import { answerOf } from '../../../core/admin/admin-table.js'
import type { ScenarioSource } from '../../../core/admin/scenario-catalog.js'
import { ApiError } from '../../../core/api-error.js'
import type { SimulatorCore, SimulatorView } from '../../../core/simulator/types.js'
import { sendError } from '../../node/node-edge.js'
import { readJson, readQuery } from './admin-json.js'

/** An operation of the admin table as an express route: an `ApiError` it throws or rejects with is the answer. */
export function operationRoute(operation: AdminOperation, sim: SimulatorCore, scenarios: ScenarioSource): RequestHandler {
  return (req, res, next) => {
    const refuse = (error: unknown) => {
      if (error instanceof ApiError) sendError(res, error)
      else next(error)
    }
    try {
      const input = {
        view: res.locals['view'] as SimulatorView,
        sim,
        scenarios,
        params: req.params as Record<string, string>,
        // Only where the operation reads them: elsewhere a query or a body is ignored, as it always was.
        query: operation.query === undefined ? {} : readQuery(req.originalUrl),
        body: operation.body === undefined ? undefined : readJson(req, operation.body.hint),
      }
      answerOf(operation, input).then(({ status, headers, text }) => {
        if (status === 204) res.status(204).end()
        else res.status(status).set(headers).type('application/json').send(text)
      }, refuse)
    } catch (error) {
      refuse(error)
    }
  }
}
