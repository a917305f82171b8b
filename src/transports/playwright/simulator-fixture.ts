import type { Fault, FaultInput } from '../../core/controls/faults.js'
import type { LatencyInput, LatencySettings } from '../../core/controls/latency.js'
import type { RateLimit } from '../../core/controls/rate-limit.js'
import type { Int64, NewOrder, Order, OrderPatch } from '../../core/glossary.js'
import type { Duration } from '../../core/lifecycle/duration.js'
import type { ClockState } from '../../core/lifecycle/order-lifecycle.js'
import type { SimulatorState } from '../../core/simulator/types.js'
import type { JournalEntry } from '../../core/state/journal.js'
import type { RequestFilter } from '../../core/state/request-filter.js'
import type { PactDocument } from '../../core/pact/pact-document.js'
import type { PactOptions } from '../../core/pact/pact-names.js'

/** `'server'`: a running petstore-sim answers the browser; `'route'`: a simulator in the test process does, through Playwright's routing. */
export type SimulatorMode = 'server' | 'route'

/**
 * One test's simulator state, the same verbs in both modes. In `'server'`
 * mode it is a session of the running simulator, opened for this test only;
 * in `'route'` mode a session of a simulator inside the test process.
 */
export interface SimulatorFixture {
  /** This test's session id: every request the test's browser context sends to the simulator carries it as `X-Sim-Session`. */
  readonly session: string
  readonly mode: SimulatorMode
  /** The base URL the app calls (the `simulatorUrl` option), e.g. `http://127.0.0.1:4010/v1`. */
  readonly url: string
  /** The session's orders, status included, in list order. */
  orders(): Promise<Order[]>
  /** What the session serves: scenario, options and orders. */
  state(): Promise<SimulatorState>
  /** The requests this test's session answered that match every field of `filter` (all without one), oldest first. */
  requests(filter?: RequestFilter): Promise<JournalEntry[]>
  /** Forgets the session's recorded requests. */
  clearRequests(): Promise<void>
  /** The requests this test's session answered as a Pact contract (v4), as `sim.pact()` in process gives it. */
  pact(options: PactOptions): Promise<PactDocument>
  /** Back to the initial state of `scenario` (by name), or of the current one when none is given. */
  reset(scenario?: string, options?: { seed?: number }): Promise<void>
  /**
   * Changes one order live, bypassing the API's rules (a shipped order may go
   * back to pending); resolves with the order. `null` removes an optional field.
   * @example
   * await sim.updateOrder(1, { status: 'shipped' })
   */
  updateOrder(id: Int64 | string, patch: OrderPatch): Promise<Order>
  /** Adds an order (its id the next free one when left out, its status pending); resolves with it. */
  addOrder(order: NewOrder): Promise<Order>
  /** Removes one order. */
  removeOrder(id: Int64 | string): Promise<void>
  /** Moves the session's simulated clock on (`'30s'`) and applies every transition that falls due: pending orders ship under a lifecycle. */
  advanceClock(duration: Duration): Promise<ClockState>
  /** The simulated time, the lifecycle in force and the transitions still to come. */
  clock(): Promise<ClockState>
  /** A fault on purpose, until the next reset: `{ operation: 'cancelOrder', kind: 'status', status: 503, times: 2 }`. */
  addFault(fault: FaultInput): Promise<Fault>
  faults(): Promise<Fault[]>
  clearFaults(): Promise<void>
  /** Delays every answer: `50`, `"50-400"`, per operation `{ default, cancelOrder }`, or `null` for none. */
  setLatency(latency: LatencyInput | LatencySettings | null): Promise<void>
  /** Per API key, e.g. `"100/60s"`, or `null` for none. */
  setRateLimit(limit: string | RateLimit | null): Promise<void>
}

/** What a fixture is opened with: the test's options and its session id. */
export interface FixtureSettings {
  scenario: string
  url: URL
  session: string
  adminToken: string | undefined
  /** Tells the test's report of a problem that must not fail the test, such as a session the fixture could not end. */
  warn(message: string): void
}

export const SIMULATOR_MODES: readonly SimulatorMode[] = ['server', 'route']
