import { ApiError } from '../api-error.js'
import { parseExactJson, stringifyExactJson } from '../exact-json.js'
import { internalsOf } from '../simulator/internals.js'
import type { SimulatorCore } from '../simulator/types.js'
import { AdminError, type AdminClient, clientOf } from './admin-client.js'
import { failAdmin } from './admin-input.js'
import { answerOf } from './admin-table.js'
import { availableScenarios } from './scenario-catalog.js'

/**
 * The admin API of an in-process simulator, the same typed client as
 * `adminClient` gives over HTTP: each call runs the admin table's handler,
 * its body and answer passed through JSON text as a request's would be, a
 * refusal thrown as the same `AdminError`. What the in-page panel acts through.
 */
export function inProcessAdminClient(sim: SimulatorCore, session: string | null = null): AdminClient {
  const internals = internalsOf(sim)
  const scenarios = availableScenarios(sim.scenario())
  return clientOf(async ({ operation, params, query, body }) => {
    try {
      const view = internals.view(session, failAdmin)
      const sent = body === undefined ? undefined : parseExactJson(stringifyExactJson(body))
      const { text } = await answerOf(operation, { view, sim, scenarios, params, query, body: sent })
      return text === '' ? undefined : parseExactJson(text)
    } catch (error) {
      if (error instanceof ApiError) throw new AdminError(error.status, error.code, error.message)
      throw error
    }
  })
}
