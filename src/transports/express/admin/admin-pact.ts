import type { Router } from 'express'
import { invalidRequest } from '../../../core/api-error.js'
import { pactJson } from '../../../core/pact/pact-json.js'
import { action } from './admin-action.js'
import { readJson, readQuery, sendJson } from './admin-json.js'
import { quote } from '../../../core/quote-value.js'

const PACT_QUERY = ['consumer', 'provider']

/** A pact of the state's requests, and Pact's state changes: what a provider team's verification needs. */
export function addPactRoutes(router: Router): void {
  router.get(
    '/pact',
    action((req, res, view) => {
      const query = readQuery(req.originalUrl)
      const unknown = Object.keys(query).find((field) => !PACT_QUERY.includes(field))
      if (unknown !== undefined) throw invalidRequest(`Unknown query field ${quote(unknown)}: GET /__sim/pact takes consumer and provider.`)
      // The view checks the names (a 400 naming the field) and builds the same pact as in process, byte for byte.
      res
        .status(200)
        .type('application/json')
        .send(pactJson(view.pact(query as { consumer: string; provider?: string })))
    }),
  )
  router.post(
    '/provider-states',
    action(async (req, res, view) => {
      const change = readJson(req, 'Send Pact\'s state change: {"state": "order 1 is pending", "params": {"id": 1}, "action": "setup"}.')
      await view.changeProviderState(change as Parameters<typeof view.changeProviderState>[0])
      const { state, action: done = 'setup' } = change as { state: string; action?: string }
      sendJson(res, 200, { state, action: done })
    }),
  )
}
