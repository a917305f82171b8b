import { ApiError } from '../api-error.js'
import { parseExactJson, stringifyExactJson } from '../exact-json.js'
import { internalsOf } from '../simulator/internals.js'
import type { SimulatorCore } from '../simulator/types.js'
import { AdminError, type AdminClient, clientOf } from './admin-client.js'
import { failAdmin } from './admin-input.js'
import { answerOf } from './admin-table.js'
import { type ScenarioSource, scenarioSource } from './scenario-catalog.js'

/** Through JSON text and back, as a request or the event stream carries it: one shape, however it travels. */
export const asSent = (value: unknown) => (value === undefined ? undefined : parseExactJson(stringifyExactJson(value)))

/**
 * The admin API of an in-process simulator, the same typed client as over
 * HTTP: each call runs the admin table's handler on the session's state (the
 * default one for null), and a refusal is the same `AdminError`. As over HTTP,
 * a call that fails leaves no session it made behind.
 */
export function inProcessAdminClient(sim: SimulatorCore, session: string | null, scenarios?: ScenarioSource): AdminClient {
  const internals = internalsOf(sim)
  const source = scenarios ?? scenarioSource(sim.scenario(), internals.folder)
  return clientOf(async ({ operation, params, query, body }) => {
    const made = session !== null && !internals.hasSession(session)
    try {
      const view = internals.view(session, failAdmin)
      const { text } = await answerOf(operation, { view, sim, scenarios: source, params, query, body: asSent(body) })
      return text === '' ? undefined : parseExactJson(text)
    } catch (error) {
      if (made && internals.hasSession(session)) sim.endSession(session)
      throw error instanceof ApiError ? new AdminError(error.status, error.code, error.message) : error
    }
  })
}
