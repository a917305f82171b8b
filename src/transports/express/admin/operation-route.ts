import type { RequestHandler } from 'express'
import type { AdminOperation } from '../../../core/admin/admin-operation.js'
import { answerOf } from '../../../core/admin/admin-table.js'
import type { ScenarioSource } from '../../../core/admin/scenario-catalog.js'
import type { SimulatorCore, SimulatorView } from '../../../core/simulator/types.js'
import { readJson, readQuery } from './admin-json.js'

/** An operation of the admin table as an express route; what it throws or rejects with goes to the admin app's error handler. */
export function operationRoute(operation: AdminOperation, sim: SimulatorCore, scenarios: ScenarioSource): RequestHandler {
  return (req, res, next) => {
    Promise.resolve()
      .then(() =>
        answerOf(operation, {
          view: res.locals['view'] as SimulatorView,
          sim,
          scenarios,
          params: req.params as Record<string, string>,
          // Only where the operation reads them: elsewhere a query or a body is ignored, as it always was.
          query: operation.query === undefined ? {} : readQuery(req.originalUrl),
          body: operation.body === undefined ? undefined : readJson(req, operation.body.hint),
        }),
      )
      .then(({ status, headers, text }) => {
        if (status === 204) res.status(204).end()
        else res.status(status).set(headers).type('application/json').send(text)
      })
      .catch(next)
  }
}
