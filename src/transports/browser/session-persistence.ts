import { faultInputOf, type FaultInput } from '../../core/controls/faults.js'
import type { LatencyRanges } from '../../core/controls/latency.js'
import type { RateLimit } from '../../core/controls/rate-limit.js'
import type { Scenario } from '../../core/scenario/scenario.js'
import { internalsOf } from '../../core/simulator/internals.js'
import type { ResetRequest, SimulatorOptions, SimulatorView } from '../../core/simulator/types.js'
import { parseOrderRecords, type OrderRecord } from '../../core/state/order-store.js'
import type { Simulator } from '../msw/build-simulator.js'

/** The sessionStorage key of a tab's simulator state. */
const STORAGE_KEY = 'petstore-orders-simulator:state'
/** Past this size (UTF-8 bytes of its JSON) the state is no longer kept: sessionStorage holds about 5 MiB per origin, shared with the app. */
const MAX_PERSISTED_BYTES = 1024 * 1024
/** Bumped whenever the stored shape changes: an older copy is then set aside, not misread. */
const FORMAT = 1

/** What a tab keeps across reloads: where its state came from, its controls and its orders. */
interface PersistedState {
  format: typeof FORMAT
  /** The worker's options when the state was saved: other options (the app's code changed) start afresh. */
  startedWith: string
  scenario: string | Scenario
  seed: number | null
  latency: LatencyRanges | null
  faults: FaultInput[]
  rateLimit: RateLimit | null
  orders: readonly OrderRecord[]
}

/** Where the state goes, and the scenario and seed `reset()` with no argument goes back to, as the app last chose them. */
interface Persistence extends Pick<PersistedState, 'startedWith' | 'scenario' | 'seed'> {
  storage: Storage | undefined
  /** Set once the state outgrew its bound or the storage refused it: nothing more is written. */
  stopped: boolean
  /** Resets under way: a save meanwhile would put back the state the reset clears, or half of the new one. */
  resetting: number
}

const say = (text: string) => console.warn(`[petstore-orders-simulator] persist: 'session': ${text}`)

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The stored state when it is exactly this version's shape and these options', else undefined (said once when something was there). */
function readStored(storage: Storage, startedWith: string): PersistedState | undefined {
  const text = storage.getItem(STORAGE_KEY)
  if (text === null) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = undefined
  }
  const orders = isRecord(parsed) ? parseOrderRecords(parsed['orders']) : undefined
  const shaped =
    isRecord(parsed) &&
    parsed['format'] === FORMAT &&
    typeof parsed['startedWith'] === 'string' &&
    (typeof parsed['scenario'] === 'string' || isRecord(parsed['scenario'])) &&
    (parsed['seed'] === null || typeof parsed['seed'] === 'number') &&
    Array.isArray(parsed['faults']) &&
    orders !== undefined
  if (!shaped || !isRecord(parsed)) {
    say('the stored state is not one this version reads (an older version, or damaged); starting from a fresh state.')
    return undefined
  }
  if (parsed['startedWith'] !== startedWith) return undefined // the app now starts the worker differently: its choice wins, silently
  return { ...(parsed as unknown as PersistedState), orders }
}

/**
 * The simulator `make` gives, made from the stored scenario and seed with the stored controls and orders put back,
 * and `keep`, which keeps its state from then on. When this version cannot take the state back, a fresh simulator
 * made from the page's own `options`, never a half-restored one.
 */
export async function restoredSimulator<T extends SimulatorOptions>(
  options: T,
  make: (options: T) => Promise<Simulator>,
): Promise<{ sim: Simulator; keep(onAnswered: (listener: () => void) => void): void }> {
  let storage: Storage | undefined
  try {
    storage = globalThis.sessionStorage
  } catch {
    // Storage disabled, or a sandboxed frame: reading it throws.
  }
  let startedWith: string
  try {
    startedWith = JSON.stringify(options) ?? ''
  } catch {
    startedWith = '' // a bigint or a cycle in the options: nothing stored can match them
  }
  const persistence: Persistence = {
    storage,
    startedWith,
    scenario: options.scenario ?? 'default',
    seed: options.seed ?? null,
    stopped: false,
    resetting: 0,
  }
  const kept = (sim: Simulator) => ({
    sim,
    keep: (onAnswered: (listener: () => void) => void) => keepInSession(sim, persistence, onAnswered),
  })
  let stored: PersistedState | undefined
  if (storage === undefined) {
    say('sessionStorage cannot be used in this page; the state is not kept across reloads.')
    persistence.stopped = true
  } else {
    try {
      stored = readStored(storage, startedWith)
    } catch {
      say('sessionStorage cannot be read; starting from a fresh state.')
    }
  }
  if (stored === undefined) return kept(await make(options))
  const sim = await make({ ...options, scenario: stored.scenario, ...(stored.seed === null ? {} : { seed: stored.seed }) })
  try {
    sim.setLatency(stored.latency)
    sim.clearFaults()
    for (const fault of stored.faults) sim.addFault(fault)
    sim.setRateLimit(stored.rateLimit)
    await internalsOf(sim).records.replace(stored.orders)
  } catch (error) {
    say(`the stored state cannot be restored (${String(error)}); starting from a fresh state.`)
    sim.close()
    return kept(await make(options))
  }
  persistence.scenario = stored.scenario
  persistence.seed = stored.seed
  return kept(sim)
}

/** Writes the state now, unless it outgrew its bound or the storage refused it before. */
function save(sim: Simulator, persistence: Persistence): void {
  const { storage } = persistence
  if (persistence.stopped || persistence.resetting > 0 || storage === undefined) return
  const { startedWith, scenario, seed } = persistence
  const text = JSON.stringify({
    format: FORMAT,
    startedWith,
    scenario,
    seed,
    latency: sim.latency(),
    faults: sim.faults().map(faultInputOf),
    rateLimit: sim.rateLimit(),
    orders: internalsOf(sim).records.all(),
  } satisfies PersistedState)
  const bytes = new TextEncoder().encode(text).byteLength
  try {
    if (bytes > MAX_PERSISTED_BYTES) {
      storage.removeItem(STORAGE_KEY)
      persistence.stopped = true
      say(`the state is ${bytes} bytes, past the ${MAX_PERSISTED_BYTES}-byte bound; it is no longer kept across reloads in this tab.`)
      return
    }
    storage.setItem(STORAGE_KEY, text)
  } catch (error) {
    persistence.stopped = true
    say(
      `sessionStorage refused the state (${error instanceof Error ? error.name : String(error)}); it is no longer kept across reloads in this tab.`,
    )
  }
}

/** The scenario a reset call loads, when it names one. */
function resetScenario(scenarioOrRequest: string | Scenario | ResetRequest | undefined): string | Scenario | undefined {
  if (scenarioOrRequest === undefined || typeof scenarioOrRequest === 'string') return scenarioOrRequest
  const keys = Object.keys(scenarioOrRequest)
  // The same test as the simulator's own: only `scenario` and `seed` make a request.
  return keys.every((key) => key === 'scenario' || key === 'seed')
    ? (scenarioOrRequest as ResetRequest).scenario
    : (scenarioOrRequest as Scenario)
}

/**
 * Keeps the simulator's state in the tab's sessionStorage from now on: after
 * every answer of the worker (debounced) and when the page goes away. A reset
 * clears what was stored; the state it makes is stored from the next answer on.
 */
function keepInSession(sim: Simulator, persistence: Persistence, onAnswered: (listener: () => void) => void): void {
  let pending: ReturnType<typeof setTimeout> | undefined
  const saveSoon = () => {
    if (pending !== undefined) return
    pending = setTimeout(() => {
      pending = undefined
      save(sim, persistence)
    }, 50)
  }
  onAnswered(saveSoon)
  globalThis.addEventListener?.('pagehide', () => save(sim, persistence))
  const reset = sim.reset.bind(sim)
  sim.reset = (scenarioOrRequest?: string | Scenario | ResetRequest, options?: Parameters<SimulatorView['reset']>[1]) => {
    const loaded = reset(scenarioOrRequest, options)
    // A save already scheduled (an answer just before) would write the old state back after the removal below.
    if (pending !== undefined) clearTimeout(pending)
    pending = undefined
    persistence.resetting += 1
    // Only a reset that loads changes what is kept; a refused one (it threw) leaves it as it was.
    try {
      persistence.storage?.removeItem(STORAGE_KEY)
    } catch {
      // A storage that cannot be written: the next save says so.
    }
    const requestSeed = isRecord(scenarioOrRequest) && 'seed' in scenarioOrRequest ? scenarioOrRequest['seed'] : undefined
    const seed = options?.seed ?? requestSeed
    // Written again with the next answer or when the page goes away, whichever comes first.
    void loaded.then(
      () => {
        persistence.resetting -= 1
        persistence.scenario = resetScenario(scenarioOrRequest) ?? persistence.scenario
        if (typeof seed === 'number') persistence.seed = seed
      },
      () => {
        persistence.resetting -= 1
        save(sim, persistence) // refused: the state is still the one before, so it is kept again
      },
    )
    return loaded
  }
}
