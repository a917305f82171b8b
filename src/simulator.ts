import type { HttpHandler } from 'msw'
import { stringify } from 'lossless-json'
import type { AfterCancel, DeprecationDates, Order, Scenario } from './glossary.js'
import { ApiError } from './api-error.js'
import { assertAuthorized } from './auth.js'
import { createControls, parseFault, parseLatencySettings, parseRateLimit, type Controls, type Fault, type FaultInput, type LatencyInput, type LatencySettings, type RateLimit } from './controls.js'
import { ErrorCode } from './error-codes.js'
import { createHandlers } from './handlers.js'
import { createOperations, type HandlerInstance, type Reply, type SimRequest } from './operations.js'
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
  /** Bounds of the sessions that X-Sim-Session opens: at most `max` (default 100), dropped after `idleSeconds` unused (default 1800). */
  sessions?: { max?: number; idleSeconds?: number }
}

export interface ResetOptions {
  /** Replaces the seed of the scenario's order generator from now on. */
  seed?: number
}

/** The one-argument form of `reset`, shaped like the body of the admin API's reset. */
export interface ResetRequest extends ResetOptions {
  scenario?: string | Scenario
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
  options: { baseUrl: string; exposeStatus: boolean; afterCancel: AfterCancel; deprecation: DeprecationDates }
  orders: Order[]
}

/** The in-process API over one state: the simulator's own, or one session's. */
export interface SimulatorView {
  /**
   * Puts every order back to the initial state of a scenario: the current one
   * when none is given. A scenario that fails to load leaves the state as it was.
   * @example
   * sim.reset()                                // the current scenario, from scratch
   * sim.reset('shipped')                       // switch scenario
   * sim.reset('default', { seed: 7 })          // switch, with another generator seed
   * sim.reset({ scenario: 'shipped', seed: 7 }) // the same as one object
   */
  reset(scenario?: string | Scenario | ResetRequest, options?: ResetOptions): Promise<void>
  /** The current orders, status included, in list order. */
  orders(): Order[]
  /** What the simulator serves now: scenario, options and orders. */
  state(): SimulatorState
  /** The scenario loaded now, without the orders (cheap, unlike `state()`). */
  scenario(): LoadedScenario
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

/** A session as `sessions()` lists it. */
export interface SessionInfo {
  id: string
  scenario: string
  created: string
  lastUsed: string
  /** How many requests its journal holds. */
  requests: number
  /** Why a session with this id had been dropped before this one was made afresh (`evicted`, `expired`), or null. */
  recreated: 'evicted' | 'expired' | null
}

export interface Simulator extends SimulatorView {
  /** The msw request handlers; hand them to `setupServer(...)` or `setupWorker(...)`. */
  readonly handlers: readonly HttpHandler[]
  /**
   * Answers one request as the handlers would, from plain values rather than
   * Fetch objects: what the standalone server calls. Null when the request is
   * not the API's (another origin or path).
   */
  route(request: SimRequest, url: URL): Promise<Reply> | null
  /**
   * The state of one session: requests carrying `X-Sim-Session: <id>` act on
   * it. Created on first use from the simulator's current scenario, at its
   * initial state. Sessions are bounded (least recently used go first) and
   * expire when idle.
   * @example
   * const mine = sim.session('test-run-7')
   * mine.reset('shipped')
   * await fetch(url, { headers: { 'X-Sim-Session': 'test-run-7', ...auth } })
   */
  session(id: string): SimulatorView
  sessions(): SessionInfo[]
  endSession(id: string): boolean
}

/** The largest request body accepted (1 MiB): the operations take none. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024

/** Defaults for the dates the specification does not give. */
export const DEFAULT_DEPRECATION: Readonly<Record<keyof DeprecationDates, string>> = {
  deprecatedAt: '2026-01-01T00:00:00Z',
  sunsetAt: '2027-01-01T00:00:00Z',
}

/** One independent state: orders, scenario, controls and journal. A simulator has its own, plus one per session. */
interface Instance extends HandlerInstance {
  active: ActiveScenario
}

interface SessionEntry {
  instance: Instance
  created: number
  lastUsed: number
  /** Why the session with this id had been dropped before it was made afresh, or null. */
  recreated: 'evicted' | 'expired' | null
}

/** How many dropped session ids are remembered, to tell a recreated session from a new one. */
const MAX_DROPPED_SESSIONS = 1000

/** The header that gives a caller its own copy of the state. */
export const SESSION_HEADER = 'X-Sim-Session'
const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/
export const DEFAULT_MAX_SESSIONS = 100
export const DEFAULT_SESSION_IDLE_SECONDS = 30 * 60

interface ActiveScenario {
  scenario: CheckedScenario
  source: string
  seed: number | undefined
  initialOrders: readonly OrderRecord[]
  settings: ReturnType<HandlerInstance['settings']>
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
  function restoreControls(controls: Controls, scenario: CheckedScenario): void {
    controls.setLatency(options.latency !== undefined || scenario.latency === undefined ? initialLatency : parseLatencySettings(scenario.latency))
    controls.clearFaults()
    for (const fault of [...initialFaults, ...(scenario.faults ?? [])]) controls.addFault(fault)
    controls.setRateLimit(initialRateLimit ?? (scenario.rateLimit === undefined ? null : parseRateLimit(scenario.rateLimit)))
  }
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 0) {
    fail(`bodyLimit must be a whole number of bytes, got ${String(bodyLimit)}.`)
  }
  const maxSessions = options.sessions?.max ?? DEFAULT_MAX_SESSIONS
  const idleMs = (options.sessions?.idleSeconds ?? DEFAULT_SESSION_IDLE_SECONDS) * 1000
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 0 || !Number.isFinite(idleMs) || idleMs <= 0) {
    fail('sessions.max must be a whole number of 0 or more and sessions.idleSeconds a number above 0.')
  }
  function load(input: string | Scenario, seed: number | undefined): ActiveScenario {
    const { scenario, source } = resolveScenario(input)
    return activate(scenario, source, seed)
  }

  /** A fresh, independent state at the initial state of `active`. */
  function createInstance(active: ActiveScenario): Instance {
    const instance: Instance = {
      store: createOrderStore(),
      controls: createControls(),
      journal: createJournal(journalSize),
      active,
      settings: () => instance.active.settings,
    }
    // Readers and requests see the orders at once; nothing needs to wait for the model.
    void instance.store.replaceAll(active.initialOrders)
    restoreControls(instance.controls, active.scenario)
    return instance
  }

  const root = createInstance(load(options.scenario ?? 'default', checkSeed(options.seed, 'create')))
  /** Sessions by id, least recently used first. */
  const sessions = new Map<string, SessionEntry>()
  /** Ids of sessions dropped lately (oldest first), and why. */
  const dropped = new Map<string, 'evicted' | 'expired'>()

  function drop(id: string, why: 'evicted' | 'expired'): void {
    sessions.delete(id)
    dropped.delete(id)
    dropped.set(id, why)
    if (dropped.size > MAX_DROPPED_SESSIONS) dropped.delete(dropped.keys().next().value as string)
  }

  /**
   * The session `id`, made from the simulator's current scenario when it does
   * not exist, unless `beforeCreate` throws.
   */
  function session(id: string, beforeCreate?: (active: ActiveScenario) => void): SessionEntry {
    if (!SESSION_ID.test(id)) {
      throw new ApiError(400, ErrorCode.InvalidRequest, `Invalid session id ${JSON.stringify(id.slice(0, 80))}: use 1 to 128 letters, digits and . _ : - characters.`)
    }
    const now = Date.now()
    // Least recently used first, so the idle ones are at the front: no walk of them all.
    for (const [key, entry] of sessions) {
      if (now - entry.lastUsed <= idleMs) break
      drop(key, 'expired')
    }
    let entry = sessions.get(id)
    if (entry === undefined) {
      if (maxSessions === 0) throw new ApiError(400, ErrorCode.InvalidRequest, 'Sessions are turned off (sessions.max is 0).')
      beforeCreate?.(root.active)
      const recreated = dropped.get(id) ?? null
      dropped.delete(id)
      // From the simulator's current scenario, at its initial state.
      entry = { instance: createInstance(root.active), created: now, lastUsed: now, recreated }
      entry.instance.recreatedUnannounced = recreated !== null
      while (sessions.size >= maxSessions) drop(sessions.keys().next().value as string, 'evicted')
    } else {
      sessions.delete(id)
      entry.lastUsed = now
    }
    sessions.set(id, entry)
    return entry
  }

  const operations = createOperations({
    base,
    instanceFor(request) {
      const id = request.header(SESSION_HEADER)
      if (id === null || id === '') return root
      // Only a request with an accepted key makes a session: others cannot fill memory with them.
      return session(id, (active) => assertAuthorized(request.header('Authorization'), active.settings.acceptedKeys)).instance
    },
    journal: root.journal,
    deprecationHeaders: deprecationHeaders(deprecation),
    fallthrough: options.fallthrough ?? false,
    bodyLimit,
  })
  const handlers = createHandlers(base, operations)

  /** The in-process API over one instance: the simulator's own, or a session's. */
  function viewOf(instance: () => Instance): SimulatorView {
    return {
      get journal() {
        return instance().journal
      },
      get controls() {
        return instance().controls
      },
      addFault: (fault) => instance().controls.addFault(check(() => parseFault(fault), 'configure')),
      faults: () => instance().controls.faults(),
      removeFault: (id) => instance().controls.removeFault(id),
      clearFaults: () => instance().controls.clearFaults(),
      setLatency: (latency) => instance().controls.setLatency(latency === null ? {} : check(() => parseLatencySettings(latency), 'configure')),
      setRateLimit: (limit) => instance().controls.setRateLimit(limit === null ? null : check(() => parseRateLimit(limit), 'configure')),
      reset(scenarioOrRequest, resetOptions = {}) {
        const target = instance()
        const request: ResetRequest = isResetRequest(scenarioOrRequest)
          ? { ...scenarioOrRequest, ...resetOptions }
          : { scenario: scenarioOrRequest, ...resetOptions }
        const { scenario } = request
        const seed = request.seed === undefined ? target.active.seed : checkSeed(request.seed, 'reset')
        // Load fully before touching the store: a bad scenario changes nothing.
        const next =
          scenario !== undefined ? load(scenario, seed)
          : seed !== target.active.seed ? activate(target.active.scenario, target.active.source, seed)
          : target.active
        const stored = target.store.replaceAll(next.initialOrders)
        target.active = next
        restoreControls(target.controls, next.scenario)
        return stored
      },
      orders() {
        return instance().store.all().map(toOrder)
      },
      scenario() {
        const { active } = instance()
        return { name: active.scenario.name, description: active.scenario.description, source: active.source }
      },
      state() {
        const { active, store } = instance()
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

  return Object.assign(viewOf(() => root), {
    handlers,
    route: operations.route,
    session: (id: string) => {
      check(() => session(id), 'open a session of')
      return viewOf(() => session(id).instance)
    },
    sessions: () =>
      [...sessions].map(([id, entry]) => ({
        id,
        scenario: entry.instance.active.scenario.name,
        created: new Date(entry.created).toISOString(),
        lastUsed: new Date(entry.lastUsed).toISOString(),
        requests: entry.instance.journal.entries().length,
        recreated: entry.recreated,
      })),
    endSession: (id: string) => sessions.delete(id),
  })
}
