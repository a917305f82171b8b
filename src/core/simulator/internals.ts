import type { Dispatcher } from '../dispatch/dispatcher.js'
import type { ScenarioFolder } from '../platform.js'
import type { ApiBase } from '../operations/routing.js'
import type { JournalWriter } from '../state/journal.js'
import type { OrderRecord } from '../state/order-store.js'
import type { FailValidation } from './view.js'
import type { SimulatorCore, SimulatorView } from './types.js'

/** What the transports need of a simulator beyond its public API. */
export interface SimulatorInternals {
  dispatcher: Dispatcher
  base: ApiBase
  bodyLimit: number
  /** The simulator's own journal, for what a transport answers itself (a 404 outside the API). */
  journal: JournalWriter
  /** The view an edge acts through: the simulator's own (`sessionId` null) or a session's, its input errors mapped by `fail`. */
  view(sessionId: string | null, fail: FailValidation): SimulatorView
  /** Counters that move when a state's orders or journal change: what a watcher compares instead of reading them. */
  revision(sessionId: string | null): Revision
  /** The simulator's own orders as stored, and a way to put such a copy back (a tab's state across reloads). */
  records: {
    all(): readonly OrderRecord[]
    replace(records: readonly OrderRecord[]): Promise<void>
  }
  /** The scenarios folder (`scenariosDir`), or undefined without one. */
  folder: ScenarioFolder | undefined
  /** What the sessions hold in all, with the default state's recordings, in bytes, as counted against `sessions.maxBytes`. */
  sessionBytes(): number
  /** Whether a session with this id is live (listing them all would copy every journal). */
  hasSession(id: string): boolean
  /**
   * A number that moves whenever anything `sim.snapshot()` holds changes (orders, controls, clock,
   * routes, coverage, sessions opened or gone; not the journal): what a saver polls. One loop over the
   * sessions, no copy; it only ever grows.
   */
  stateRevision(): number
}

export interface Revision {
  /** Moves on every change of the orders, a reset included. */
  orders: number
  /** Requests recorded in the journal since the state was made. */
  recorded: number
  /** Times the journal was cleared. */
  cleared: number
  /** Moves on every answer coverage counts, and on a clear of it. */
  coverage: number
}

// Not in any public type: a transport reaches the internals through `internalsOf` only.
const INTERNALS = Symbol('petstore-orders-simulator internals')

export function attachInternals<T extends SimulatorCore>(sim: T, internals: SimulatorInternals): T {
  // Enumerable, so that a copy made with spread (`{ ...sim, handlers }`) is served alike; symbols stay out of keys and JSON.
  Object.defineProperty(sim, INTERNALS, { value: internals, enumerable: true, writable: false })
  return sim
}

export function internalsOf(sim: SimulatorCore): SimulatorInternals {
  const internals = (sim as unknown as Record<symbol, SimulatorInternals | undefined>)[INTERNALS]
  if (internals === undefined)
    throw new TypeError('This simulator was not made by this copy of petstore-orders-simulator (createSimulator).')
  return internals
}
