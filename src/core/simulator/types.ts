import type { Fault, FaultInput } from '../controls/faults.js'
import type { LatencyInput, LatencyRanges, LatencySettings } from '../controls/latency.js'
import type { RateLimit } from '../controls/rate-limit.js'
import type { AfterCancel, DeprecationDates, Int64, NewOrder, Order, OrderPatch } from '../glossary.js'
import type { Scenario } from '../scenario/scenario.js'
import type { Route } from '../routes/route-table.js'
import type { ProxyOption } from '../platform.js'
import type { Duration } from '../lifecycle/duration.js'
import type { LifecycleInput, LifecycleRule } from '../lifecycle/lifecycle-rule.js'
import type { ClockState } from '../lifecycle/order-lifecycle.js'
import type { JournalEntry, RequestJournal } from '../state/journal.js'
import type { RequestFilter } from '../state/request-filter.js'
import type { PactDocument } from '../pact/pact-document.js'
import type { Coverage } from '../outcome-coverage/coverage-counter.js'
import type { PactOptions } from '../pact/pact-names.js'
import type { ProviderStateChange } from '../pact/provider-states.js'
import type { Fetch } from '../fetch/glossary.js'
import type { TimeSource } from '../time-source.js'
import type { ScenarioExport } from './scenario-export.js'
import type { SimulatorSnapshot } from './snapshot-schema.js'

export interface SimulatorOptions {
  /** A built-in scenario name, a path to a scenario file (Node.js only), or a scenario object. Default `"default"`. */
  scenario?: string | Scenario
  /** Replaces the seed of the scenario's order generator. */
  seed?: number
  /**
   * Where the API lives. A path (default `"/v1"`) matches it on any origin,
   * so both production and staging addresses are intercepted; an absolute URL
   * such as `"https://api.petstore.example/v1"` pins one origin.
   */
  baseUrl?: string
  /** Send each order's `status` in the list. Overrides the scenario's own setting. */
  exposeStatus?: boolean
  /** `"keep"` a cancelled order in the list, or `"remove"` it. Overrides the scenario's own setting. */
  afterCancel?: AfterCancel
  /** The dates the deprecated pets operation announces. Each overrides the scenario's own `deprecation` date. */
  deprecation?: Partial<Record<keyof DeprecationDates, Date | string>>
  /**
   * By default a request under the base URL that no operation takes is
   * answered like a real server would: 405 `method_not_allowed` with `Allow`
   * on a known path, 404 `not_found` elsewhere. `true` leaves such requests
   * to your other handlers and to msw's `onUnhandledRequest`.
   */
  fallthrough?: boolean
  /** How many of the latest requests the journal keeps (default 1000; 0 keeps none). */
  journalSize?: number
  /** Requests whose body is larger get 413 `payload_too_large` (default 1 MiB), as over HTTP. */
  bodyLimit?: number
  /** Delay every answer: `50`, `"50-400"`, or per operation `{ default, listOrders, cancelOrder, getPetById }`. */
  latency?: LatencyInput | LatencySettings
  /** Faults present from the start (and again after every reset). */
  faults?: FaultInput[]
  /** Per API key, e.g. `"100/60s"`: then 429 `rate_limited` and RateLimit headers. Off by default. */
  rateLimit?: string | RateLimit
  /**
   * Told of every error a request met inside the simulator (a bug, or a
   * problem of where it runs), which the client only sees as 500
   * `internal_error` without details. Default: `console.error`, one report per
   * request, prefixed `petstore-orders-simulator:`, with the error's stack.
   */
  onError?: (error: unknown) => void
  /**
   * Pending orders ship on their own this long after they are loaded, reset
   * or added (`complete` becomes true): `{ shipAfter: '30s' }`, or a delay
   * drawn per order from the seed, `{ min: '10s', max: '60s' }`; `null` turns
   * the scenario's off. Overrides the scenario's own. Time is a simulated
   * clock: `advanceClock('30s')` moves it on at once.
   */
  lifecycle?: LifecycleInput | null
  /**
   * Bounds of the sessions that X-Sim-Session opens: at most `max` (default
   * 100), holding at most `maxBytes` in all (default 256 MiB: orders they
   * changed or added, list bodies, journals), dropped after `idleSeconds`
   * unused (default 1800) or when ended. Past a bound, a new session is
   * refused (503 `too_many_sessions`); a session in use is never dropped.
   */
  sessions?: { max?: number; idleSeconds?: number; maxBytes?: number }
  /**
   * A folder of scenario files (Node.js only): each `<name>.json` in it is a
   * scenario `reset('<name>')` loads, read again whenever it changes, and
   * where `saveScenario` writes.
   */
  scenariosDir?: string
  /**
   * Where `sim.fetch` sends a request that is not the simulated API's (another
   * host, another path, or one left to others by `fallthrough`), such as the
   * global `fetch`. Without it such a request rejects with a `TypeError`.
   */
  fallbackFetch?: Fetch
  /**
   * Forward every request under the base that neither an operation nor a
   * scenario's route takes to a real deployment, and pass its answer back
   * (docs/proxy.md): `{ target: 'https://staging.example.test/v1', key, record }`.
   * The spec's operations are always simulated.
   */
  proxy?: ProxyOption
  /**
   * For tests: where the simulator reads the time and sets its timers (session
   * idle times, rate-limit windows, latency, the real time the lifecycle's
   * clock runs on), so that a test advances it instead of sleeping. Default:
   * the machine's time. It is NOT the simulated clock: `advanceClock` moves
   * that one, on top of this.
   */
  time?: TimeSource
  /**
   * Starts with the states of a snapshot `sim.snapshot()` returned, here or in another process (it
   * survives `JSON.stringify`): the default state and each session, as they were. Sessions start a fresh
   * idle period. Each state is restored on its own: one that cannot be is left out (the default state
   * then starts from the `scenario` option), with a line to `onRestoreWarning`. The default state also
   * starts from the options when those it is made from (`scenario`, `seed`, `latency`, `rateLimit`,
   * `faults`, `lifecycle`, `exposeStatus`, `afterCancel`) differ from the snapshot's. Past `sessions.max`,
   * only the most recently used sessions come back. Only a value that is no snapshot at all (another
   * `version`, a field missing) throws a `TypeError` saying why; then nothing is made.
   */
  restore?: SimulatorSnapshot
  /**
   * Told, one line each, of a state `restore` left out or started afresh, and why (its scenario changed
   * since the snapshot, the options changed, a bound). Default: `console.warn`.
   */
  onRestoreWarning?: (line: string) => void
}

/** The one-argument form of `reset`, shaped like the body of the admin API's reset. */
export interface ResetRequest {
  scenario?: string | Scenario
  /** Replaces the seed of the scenario's order generator from now on. */
  seed?: number
}

/** Which scenario is loaded, and where it came from. */
export interface LoadedScenario {
  name: string
  description: string
  /** Its built-in name, a file path, or its name when given as an object. */
  source: string
}

/** A snapshot of what a simulator is serving. */
export interface SimulatorState {
  /** The current scenario's name. */
  scenario: string
  description: string
  /** Where it came from: its built-in name, a file path, or its name when given as an object. */
  source: string
  apiKeys: string[]
  /** The generator seed in force, or null for the scenario's own. */
  seed: number | null
  options: {
    baseUrl: string
    exposeStatus: boolean
    afterCancel: AfterCancel
    /** The delay before a pending order ships on its own, in ms (equal for `shipAfter`), or null for none. */
    lifecycle: LifecycleRule | null
    deprecation: DeprecationDates
    /** Where requests no operation or route takes are forwarded, and whether their answers are recorded; null: nowhere. */
    proxy: { target: string; record: boolean } | null
  }
  orders: Order[]
  /** Answers for what the spec does not show: the scenario's routes, then those recorded while forwarding. */
  routes: Route[]
}

/** The in-process API over one state: the simulator's own, or one session's. */
export interface SimulatorView extends ScenarioExport {
  /**
   * Puts every order back to the initial state of a scenario: the current one
   * when none is given. A scenario that fails to load leaves the state as it was.
   * @example
   * sim.reset()                                // the current scenario, from scratch
   * sim.reset('shipped')                       // switch scenario
   * sim.reset('default', { seed: 7 })          // switch, with another generator seed
   * sim.reset({ scenario: 'shipped', seed: 7 }) // the same as one object
   */
  reset(scenario?: string | Scenario | ResetRequest, options?: Pick<ResetRequest, 'seed'>): Promise<void>
  /** The current orders, status included, in list order. */
  orders(): Order[]
  /** One order, status included, or undefined when no order has this id (a number, bigint or decimal string). */
  order(id: Int64 | string): Order | undefined
  /**
   * Changes one order live, bypassing the API's rules on purpose (a shipped
   * order may go back to pending); resolves with the order once the model
   * holds it. `null` removes an optional field. Not recorded in the journal.
   * Rejects with a `TypeError` for a bad id or field, and with an `ApiError`
   * (`code` `order_not_found`) for an unknown id.
   * @example
   * await sim.updateOrder(1, { status: 'shipped' })
   * await sim.updateOrder('9223372036854775807', { quantity: 3, shipDate: null })
   */
  updateOrder(id: Int64 | string, patch: OrderPatch): Promise<Order>
  /**
   * Adds an order at the end of the list (its id the next free one when left
   * out, its status pending); resolves with it once the model holds it. An id
   * that exists rejects with an `ApiError` (`code` `order_exists`).
   * @example
   * await sim.addOrder({ petId: 12, quantity: 1 })
   */
  addOrder(order: NewOrder): Promise<Order>
  /** Removes one order; rejects with an `ApiError` (`code` `order_not_found`) for an unknown id. */
  removeOrder(id: Int64 | string): Promise<void>
  /**
   * Moves the simulated clock on (`'30s'`, `'250ms'`, `'10m'`, `'2h'`, or ms;
   * 0 to 24 h) and applies every transition that falls due, in order: with a
   * `lifecycle`, the pending orders whose time has come ship. Resolves with
   * the clock once the model holds them. Without it, time passes in real time.
   * @example
   * await sim.advanceClock('30s')
   */
  advanceClock(duration: Duration): Promise<ClockState>
  /** The simulated time, the lifecycle in force and the transitions still to come. */
  clock(): ClockState
  /** What the simulator serves now: scenario, options and orders. */
  state(): SimulatorState
  /** The scenario loaded now, without the orders (cheap, unlike `state()`). */
  scenario(): LoadedScenario
  /** The latest requests the handlers answered, oldest first (bounded by `journalSize`). */
  readonly journal: RequestJournal
  /**
   * The journal's requests that match every field of `filter` (all of them without one), oldest first.
   * @example
   * sim.requests({ operation: 'cancelOrder', orderId: 5, status: 204 })
   */
  requests(filter?: RequestFilter): JournalEntry[]
  /**
   * The requests answered so far as a Pact contract (specification v4) that
   * the provider team can verify: one interaction per distinct provider state,
   * request and response, oldest first. Only what the service's rules answered
   * is in it (no fault, `Prefer` or rate limit), and nothing that changes from
   * run to run. `journal.clear()` does not empty it; it is bounded like the
   * journal. Throws a `TypeError` naming a bad `consumer` or `provider`.
   * @example
   * afterAll(() => writePact(sim.pact({ consumer: 'orders-web' })))
   */
  pact(options: PactOptions): PactDocument
  /**
   * Which of the service's documented outcomes this state answered, and how
   * often: every outcome (`listOrders.200.empty`, `cancelOrder.409.order_already_shipped`…)
   * with its count, 0 for those never seen. What faults, latency, `Prefer` and
   * the rate limit provoked is counted apart (`provoked`). Counts outlive
   * `reset` and `journal.clear()`; `clearCoverage()` starts over (docs/coverage.md).
   * @example
   * afterAll(() => writeCoverage(sim.coverage()))
   */
  coverage(): Coverage
  /** Starts coverage over: every count back to 0. */
  clearCoverage(): void
  /**
   * Pact's state change (what `POST /__sim/provider-states` does): puts this
   * state in a provider state a pact names, such as `order 1 is pending`.
   * Rejects with a `TypeError` listing the known states for an unknown one.
   * @example
   * await sim.changeProviderState({ state: 'order 5 is shipped', params: { id: 5 } })
   */
  changeProviderState(change: ProviderStateChange): Promise<void>
  /**
   * Misbehaviour on purpose, until the next reset (which restores the
   * simulator's own `latency`, `faults` and `rateLimit` options).
   * @example
   * sim.addFault({ operation: 'cancelOrder', kind: 'status', status: 503, times: 2 })
   * sim.setLatency('50-400')
   * sim.setRateLimit('100/60s')
   */
  addFault(fault: FaultInput): Fault
  faults(): Fault[]
  removeFault(id: number): boolean
  clearFaults(): void
  setLatency(latency: LatencyInput | LatencySettings | null): void
  /** The latency in force, as ranges in ms by operation (`default` for the others); null for none, like `rateLimit()`. */
  latency(): LatencyRanges | null
  setRateLimit(limit: string | RateLimit | null): void
  /** The rate limit in force, or null. */
  rateLimit(): RateLimit | null
}

/** A session as `sessions()` lists it. */
export interface SessionInfo {
  id: string
  scenario: string
  created: string
  lastUsed: string
  /** How many requests its journal holds. */
  requests: number
  /** `expired` when a session with this id had been dropped when idle before this one was made afresh, else null. */
  recreated: 'expired' | null
}

/** A simulator without a transport: its state and the sessions beside it. */
export interface SimulatorCore extends SimulatorView {
  /**
   * The simulator as a standard `fetch`, answered in process by the same
   * rules as every transport (sessions, journal, faults, latency, rate limit,
   * pact), with no msw and no network. Usable unbound.
   * @example
   * const client = createClient<paths>({ baseUrl: 'https://api.petstore.example/v1', fetch: sim.fetch })
   * const response = await sim.fetch('https://api.petstore.example/v1/store/orders', { headers: auth })
   * @note A URL outside the simulated API rejects with a `TypeError`, unless
   * the `fallbackFetch` option says where such requests go.
   */
  readonly fetch: Fetch
  /**
   * The state of one session: requests carrying `X-Sim-Session: <id>` act on
   * it. Created on first use from the simulator's current scenario, at its
   * initial state. Sessions are bounded in number and bytes (`sessions`):
   * past a bound a new one throws (503 `too_many_sessions`); one in use is
   * never dropped to make room. They end when idle or on `endSession(id)`.
   * @example
   * const mine = sim.session('test-run-7')
   * mine.reset('shipped')
   * await fetch(url, { headers: { 'X-Sim-Session': 'test-run-7', ...auth } })
   */
  session(id: string): SimulatorView
  sessions(): SessionInfo[]
  endSession(id: string): boolean
  /**
   * Every state (the default one and each session not idle past its time) as plain JSON data, which
   * `createSimulator({ restore })` takes back, in this process or another: only what each state
   * changed, and its scenario's name. Not the journal. Its fields are opaque except `version`.
   * @example
   * const saved = JSON.stringify(sim.snapshot())
   * const again = createSimulator({ restore: JSON.parse(saved) })
   */
  snapshot(): SimulatorSnapshot
  /**
   * Stops every timer of the simulator and of its sessions (the lifecycle's
   * shipping). It still answers; orders then ship only when the clock is
   * advanced. Timers never keep a process alive, so this is for tidiness.
   */
  close(): void
}
