import { stringifyExactJson } from '../exact-json.js'
import { internalsOf, type Revision } from '../simulator/internals.js'
import type { SimulatorCore, SimulatorView } from '../simulator/types.js'

/** What a watcher reports, each when it changed (and all on the first look): as `GET /__sim/events` sends them. */
export type StateEvent =
  | { event: 'state'; data: ReturnType<SimulatorView['state']> }
  | { event: 'requests'; data: { reset: boolean; entries: ReturnType<SimulatorView['journal']['entries']> } }
  | { event: 'controls'; data: string }
  | { event: 'sessions'; data: string }
  | { event: 'coverage'; data: ReturnType<SimulatorView['coverage']> }

/** The entries a watcher has not seen: the newest ones, or all of them (`reset`) after a clear or a wrap of the ring. */
function newEntries(view: SimulatorView, before: Revision | null, now: Revision) {
  const entries = view.journal.entries()
  const added = before === null ? Number.POSITIVE_INFINITY : now.recorded - before.recorded
  if (before === null || now.cleared !== before.cleared || added > entries.length) return { reset: true, entries }
  return { reset: false, entries: entries.slice(entries.length - added) }
}

/**
 * A look at one state (`view`, of `sessionId`) that reports the `StateEvent`s that changed since the last look.
 * Counters are compared, and the controls and sessions as JSON text (both small), so a look at an idle
 * simulator reads nothing else. What the event stream and the in-page panel follow.
 */
export function stateWatcher(sim: SimulatorCore, sessionId: string | null, view: SimulatorView): () => StateEvent[] {
  const internals = internalsOf(sim)
  let seen: Revision | null = null
  let controls = ''
  let sessions = ''
  return () => {
    const events: StateEvent[] = []
    const now = internals.revision(sessionId)
    if (seen === null || now.orders !== seen.orders) events.push({ event: 'state', data: view.state() })
    if (seen === null || now.recorded !== seen.recorded || now.cleared !== seen.cleared)
      events.push({ event: 'requests', data: newEntries(view, seen, now) })
    if (seen === null || now.coverage !== seen.coverage) events.push({ event: 'coverage', data: view.coverage() })
    seen = now
    const nextControls = stringifyExactJson({ latency: view.latency(), faults: view.faults(), rateLimit: view.rateLimit() })
    if (nextControls !== controls) events.push({ event: 'controls', data: nextControls })
    controls = nextControls
    const nextSessions = JSON.stringify(sim.sessions().map(({ id, scenario }) => ({ id, scenario })))
    if (nextSessions !== sessions) events.push({ event: 'sessions', data: nextSessions })
    sessions = nextSessions
    return events
  }
}
