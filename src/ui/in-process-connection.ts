import { failAdmin } from '../core/admin/admin-input.js'
import { asSent, inProcessAdminClient } from '../core/admin/in-process-client.js'
import { stateWatcher } from '../core/admin/state-watcher.js'
import { parseExactJson } from '../core/exact-json.js'
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
    ...(internalsOf(sim).folder === undefined && {
      unsaved: "This page's simulator has no scenarios folder to save in (a browser cannot write one): Download gives the file.",
    }),
    follow(session, onEvent, onStatus) {
      // The simulator itself for the default state: its own methods are what it is watched through.
      const view = session === '' ? sim : internalsOf(sim).view(session, failAdmin)
      const changes = stateWatcher(sim, session === '' ? null : session, view)
      const look = () => {
        for (const { event, data } of changes()) onEvent({ event, data: typeof data === 'string' ? parseExactJson(data) : asSent(data) })
      }
      onStatus('live')
      look()
      const timer = setInterval(look, WATCH_MS)
      return { stop: () => clearInterval(timer), look }
    },
  }
}
