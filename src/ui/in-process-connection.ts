import { failAdmin } from '../core/admin/admin-input.js'
import { inProcessAdminClient } from '../core/admin/in-process-admin-client.js'
import { stateWatcher } from '../core/admin/state-watcher.js'
import { parseExactJson, stringifyExactJson } from '../core/exact-json.js'
import { internalsOf } from '../core/simulator/internals.js'
import type { SimulatorCore } from '../core/simulator/types.js'
import type { PanelConnection } from './connection.js'

/** How often the panel looks for changes while open: counters compared, then only what changed is sent on. */
const WATCH_MS = 250

/** The panel's connection to a simulator in this page: the admin table's handlers, and a look at its state every 250 ms. */
export function inProcessConnection(sim: SimulatorCore): PanelConnection {
  return {
    admin: (session) => inProcessAdminClient(sim, session === '' ? null : session),
    sessionsAlways: false,
    follow(session, onEvent, onStatus) {
      const view = session === '' ? sim : internalsOf(sim).view(session, failAdmin)
      const changes = stateWatcher(sim, session === '' ? null : session, view)
      // Through JSON text, as the event stream sends it: the panel reads one shape.
      const look = () => {
        for (const { event, data } of changes())
          onEvent({ event, data: parseExactJson(typeof data === 'string' ? data : stringifyExactJson(data)) })
      }
      onStatus('live')
      look()
      const timer = setInterval(look, WATCH_MS)
      return { stop: () => clearInterval(timer), look }
    },
  }
}
