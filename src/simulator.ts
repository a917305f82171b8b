import type { HttpHandler } from 'msw'
import { stringify } from 'lossless-json'
import type { AfterCancel, DeprecationDates, Order, Scenario } from './glossary.js'
import { ApiError } from './api-error.js'
import { createControls, parseFault, parseLatencySettings, parseRateLimit, type Controls, type Fault, type FaultInput, type LatencyInput, type LatencySettings, type RateLimit } from './controls.js'
import { createHandlers, type HandlerContext } from './handlers.js'
import { createJournal, DEFAULT_JOURNAL_SIZE, type RequestJournal } from './journal.js'
import { createOrderStore, toOrder, type OrderRecord } from './order-store.js'
import { parseApiBase } from './routes.js'
import { resolveScenario } from './scenario/load-scenario.js'
import { materializeOrders } from './scenario/materialize-orders.js'
import type { CheckedScenario } from './scenario/parse-scenario.js'

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
  /** The dates the deprecated pets operation announces. */
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
  /** Requests whose Content-Length is larger get 413 `payload_too_large` (default 1 MiB), as over HTTP. */
  bodyLimit?: number
  /** Delay every answer: `50`, `"50-400"`, or per operation `{ default, listOrders, cancelOrder, getPetById }`. */
  latency?: LatencyInput | LatencySettings
  /** Faults present from the start (and again after every reset). */
  faults?: FaultInput[]
  /** Per API key, e.g. `"100/60s"`: then 429 `rate_limited` and RateLimit headers. Off by default. */
  rateLimit?: string | RateLimit
}

export interface ResetOptions {
  /** Replaces the seed of the scenario's order generator from now on. */
  seed?: number
}

/** The one-argument form of `reset`, shaped like the body of the admin API's reset. */
export interface ResetRequest extends ResetOptions {
  scenario?: string | Scenario
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
  options: { baseUrl: string; exposeStatus: boolean; afterCancel: AfterCancel; deprecation: DeprecationDates }
  orders: Order[]
}

export interface Simulator {
  /** The msw request handlers; hand them to `setupServer(...)` or `setupWorker(...)`. */
  readonly handlers: readonly HttpHandler[]
  /**
   * Puts every order back to the initial state of a scenario: the current one
   * when none is given. A scenario that fails to load leaves the state as it was.
   * @example
   * sim.reset()                                // the current scenario, from scratch
   * sim.reset('shipped')                       // switch scenario
   * sim.reset('default', { seed: 7 })          // switch, with another generator seed
   * sim.reset({ scenario: 'shipped', seed: 7 }) // the same as one object
   */
  reset(scenario?: string | Scenario | ResetRequest, options?: ResetOptions): void
  /** The current orders, status included, in list order. */
  orders(): Order[]
  /** What the simulator serves now: scenario, options and orders. */
  state(): SimulatorState
  /** The latest requests the handlers answered, oldest first (bounded by `journalSize`). */
  readonly journal: RequestJournal
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
  setRateLimit(limit: string | RateLimit | null): void
  /** The controls themselves, for the admin API. */
  readonly controls: Controls
}

/** The largest request body accepted (1 MiB): the operations take none. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024

/** Defaults for the dates the specification does not give. */
export const DEFAULT_DEPRECATION: Readonly<Record<keyof DeprecationDates, string>> = {
  deprecatedAt: '2026-01-01T00:00:00Z',
  sunsetAt: '2027-01-01T00:00:00Z',
}

interface ActiveScenario {
  scenario: CheckedScenario
  source: string
  seed: number | undefined
  initialOrders: readonly OrderRecord[]
  settings: ReturnType<HandlerContext['settings']>
}

/**
 * Tells `reset({ scenario, seed })` from `reset(scenarioObject)`: a request
 * has only those two fields. Anything else is read as a scenario, so a
 * scenario that lacks its name is refused rather than taken for a request.
 */
function isResetRequest(value: unknown): value is ResetRequest {
  return typeof value === 'object' && value !== null && Object.keys(value).every((key) => key === 'scenario' || key === 'seed')
}

function fail(problem: string, action = 'create'): never {
  throw new TypeError(`Failed to ${action} the simulator: ${problem}`)
}

function checkSeed(seed: unknown, action: 'create' | 'reset'): number | undefined {
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)) {
    fail(`seed must be a whole number of 0 or more, got ${String(seed)}.`, action)
  }
  return seed
}

function toDate(value: Date | string, name: string): Date {
  const date = typeof value === 'string' ? new Date(value) : value
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    fail(`deprecation.${name} must be a valid date, got ${String(value)}.`)
  }
  return date
}

function deprecationHeaders(dates: DeprecationDates): Record<string, string> {
  return {
    // RFC 9745: a structured-field date, "@" then seconds since the epoch.
    Deprecation: `@${Math.floor(dates.deprecatedAt.getTime() / 1000)}`,
    // RFC 8594: an HTTP-date.
    Sunset: dates.sunsetAt.toUTCString(),
  }
}

/**
 * Creates an independent simulator of the Petstore Orders Service: its own
 * orders, keys and handlers. Two simulators never see each other's state.
 *
 * @example
 * const sim = createSimulator({ scenario: 'pending' })
 * const server = setupServer(...sim.handlers)
 * server.listen()
 * await fetch('https://api.petstore.example/v1/store/orders/1', {
 *   method: 'DELETE',
 *   headers: { Authorization: 'Bearer petstore-test-key' },
 * }) // 204
 * sim.orders()[0].status // 'cancelled'
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const baseUrl = options.baseUrl ?? '/v1'
  let base
  try {
    base = parseApiBase(baseUrl)
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error))
  }
  if (options.afterCancel !== undefined && options.afterCancel !== 'keep' && options.afterCancel !== 'remove') {
    fail(`afterCancel must be "keep" or "remove", got ${String(options.afterCancel)}.`)
  }
  const deprecation: DeprecationDates = {
    deprecatedAt: toDate(options.deprecation?.deprecatedAt ?? DEFAULT_DEPRECATION.deprecatedAt, 'deprecatedAt'),
    sunsetAt: toDate(options.deprecation?.sunsetAt ?? DEFAULT_DEPRECATION.sunsetAt, 'sunsetAt'),
  }

  function activate(scenario: CheckedScenario, source: string, seed: number | undefined): ActiveScenario {
    const petBodies = new Map(Object.entries(scenario.pets ?? {}).map(([petId, pet]) => [petId, stringify(pet) ?? 'null']))
    return {
      scenario,
      source,
      seed,
      initialOrders: materializeOrders(scenario, source, seed),
      settings: {
        acceptedKeys: new Set(scenario.apiKeys),
        exposeStatus: options.exposeStatus ?? scenario.exposeStatus ?? false,
        afterCancel: options.afterCancel ?? scenario.afterCancel ?? 'keep',
        petBodies,
      },
    }
  }

  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_SIZE
  if (!Number.isSafeInteger(journalSize) || journalSize < 0) {
    fail(`journalSize must be a whole number of 0 or more, got ${String(journalSize)}.`)
  }
  const journal = createJournal(journalSize)
  const controls = createControls()
  /** Reads a control's input, turning the admin API's 400 into the in-process TypeError. */
  function check<T>(read: () => T, action: string): T {
    try {
      return read()
    } catch (error) {
      if (error instanceof ApiError) fail(error.message, action)
      throw error
    }
  }
  const initialLatency = options.latency === undefined ? {} : check(() => parseLatencySettings(options.latency), 'create')
  const initialFaults = (options.faults ?? []).map((fault) => check(() => parseFault(fault), 'create'))
  const initialRateLimit = options.rateLimit === undefined ? null : check(() => parseRateLimit(options.rateLimit), 'create')
  /** The controls of a fresh load: the simulator's options win over the scenario's; faults add up. */
  function restoreControls(scenario: CheckedScenario): void {
    controls.setLatency(options.latency !== undefined || scenario.latency === undefined ? initialLatency : parseLatencySettings(scenario.latency))
    controls.clearFaults()
    for (const fault of [...initialFaults, ...(scenario.faults ?? [])]) controls.addFault(fault)
    controls.setRateLimit(initialRateLimit ?? (scenario.rateLimit === undefined ? null : parseRateLimit(scenario.rateLimit)))
  }
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 0) {
    fail(`bodyLimit must be a whole number of bytes, got ${String(bodyLimit)}.`)
  }
  const store = createOrderStore()
  function load(input: string | Scenario, seed: number | undefined): ActiveScenario {
    const { scenario, source } = resolveScenario(input)
    return activate(scenario, source, seed)
  }

  let active = load(options.scenario ?? 'default', checkSeed(options.seed, 'create'))
  store.replaceAll(active.initialOrders)
  restoreControls(active.scenario)

  const handlers = createHandlers({
    base,
    store,
    settings: () => active.settings,
    deprecationHeaders: deprecationHeaders(deprecation),
    fallthrough: options.fallthrough ?? false,
    journal,
    bodyLimit,
    controls,
  })

  return {
    handlers,
    journal,
    controls,
    addFault: (fault) => controls.addFault(check(() => parseFault(fault), 'configure')),
    faults: () => controls.faults(),
    removeFault: (id) => controls.removeFault(id),
    clearFaults: () => controls.clearFaults(),
    setLatency: (latency) => controls.setLatency(latency === null ? {} : check(() => parseLatencySettings(latency), 'configure')),
    setRateLimit: (limit) => controls.setRateLimit(limit === null ? null : check(() => parseRateLimit(limit), 'configure')),
    reset(scenarioOrRequest, resetOptions = {}) {
      const request: ResetRequest = isResetRequest(scenarioOrRequest)
        ? { ...scenarioOrRequest, ...resetOptions }
        : { scenario: scenarioOrRequest, ...resetOptions }
      const { scenario } = request
      const seed = request.seed === undefined ? active.seed : checkSeed(request.seed, 'reset')
      // Load fully before touching the store: a bad scenario changes nothing.
      const next =
        scenario !== undefined ? load(scenario, seed)
        : seed !== active.seed ? activate(active.scenario, active.source, seed)
        : active
      store.replaceAll(next.initialOrders)
      active = next
      restoreControls(active.scenario)
    },
    orders() {
      return store.all().map(toOrder)
    },
    state() {
      return {
        scenario: active.scenario.name,
        description: active.scenario.description,
        source: active.source,
        apiKeys: [...active.scenario.apiKeys],
        seed: active.seed ?? null,
        options: { baseUrl, exposeStatus: active.settings.exposeStatus, afterCancel: active.settings.afterCancel, deprecation: { ...deprecation } },
        orders: store.all().map(toOrder),
      }
    },
  }
}
