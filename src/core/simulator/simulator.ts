import { invalidRequest } from '../api-error.js'
import { assertAuthorized } from '../bearer-auth.js'
import { createDispatcher } from '../dispatch/dispatcher.js'
import { errorReporter } from '../dispatch/error-reporter.js'
import { createSimFetch } from '../fetch/sim-fetch.js'
import { quote } from '../quote-value.js'
import { mapValidation, ValidationError } from '../validation-error.js'
import type { ProxySetup } from '../dispatch/request-context.js'
import type { Platform, ScenarioFolder } from '../platform.js'
import type { OrderRecord } from '../state/order-store.js'
import type { CheckedScenario } from '../scenario/parse-scenario.js'
import { systemTime, type TimeSource } from '../time-source.js'
import { createInstanceFactory, type SimulatorInstance } from './instance.js'
import { attachInternals } from './internals.js'
import { type CheckedOptions, checkOptions, checkSeed } from './options.js'
import { fromBaggage } from './session-source.js'
import { createSessions } from './sessions.js'
import type { createSnapshots } from './snapshot.js'
import { weigh } from './state-weight.js'
import type { StartOptions } from './started-with.js'
import type { SimulatorCore, SimulatorOptions } from './types.js'
import { createView, type FailValidation } from './view.js'

/** The in-process edge: a bad input is a `TypeError` saying what failed. */
export const failInProcess: FailValidation = (error, action) => {
  throw new TypeError(`Failed to ${action} the simulator: ${error.message}`)
}

/** The HTTP edge of the operations: a bad session id is a 400. */
const failRequest = (error: ValidationError): never => {
  throw invalidRequest(error.message)
}

/**
 * The operator's stderr, told of a scenarios folder's problems (a file that stops loading, the folder
 * gone) and, unless `onRestoreWarning` says otherwise, of a state a restore started afresh.
 */
const warnOperator = (line: string) => console.warn(`petstore-orders-simulator: ${line}`)

/** Opens the `scenariosDir` option's folder with the platform's `openFolder` (a page has none: it cannot read a folder). */
function openFolder(dir: unknown, { openFolder: open }: Platform, time: TimeSource): ScenarioFolder | undefined {
  if (dir === undefined) return undefined
  return mapValidation(
    () => {
      if (typeof dir !== 'string' || dir === '')
        throw new ValidationError('scenariosDir', `scenariosDir must be a folder's path, got ${quote(dir)}.`)
      if (open === undefined)
        throw new ValidationError('scenariosDir', 'scenariosDir needs Node.js: a page cannot read a folder. Pass scenario objects instead.')
      return open(dir, warnOperator, { now: time.now })
    },
    (error) => failInProcess(error, 'create'),
  )
}

/** The proxy option, checked by the platform's `proxy`: a page has none (a real key in a page is anyone's). */
function proxyOf(options: SimulatorOptions, { proxy }: Platform): ProxySetup | null {
  if (options.proxy === undefined) return null
  if (proxy === undefined) throw new ValidationError('proxy', "proxy works in Node.js only: in a page, the real key would be anyone's.")
  return proxy(options.proxy)
}

const SNAPSHOTS_NEED_NODE =
  'snapshots work in Node.js only (a test runner, a server); in a page, persist keeps the state across reloads (docs/browser.md).'

/** The simulator's snapshots when its platform makes them (Node.js builds; a page's bundle stays without), else members saying so. */
function snapshotsFor(platform: Platform, context: Parameters<typeof createSnapshots>[0]) {
  const snapshots = (platform.snapshots as typeof createSnapshots | undefined)?.(context)
  return {
    take() {
      if (snapshots === undefined) throw new TypeError(`Failed to take a snapshot of the simulator: ${SNAPSHOTS_NEED_NODE}`)
      return snapshots.take()
    },
    restore(input: unknown, warn: (line: string) => void) {
      if (snapshots === undefined) throw new ValidationError('restore', `restore: ${SNAPSHOTS_NEED_NODE}`)
      snapshots.restore(input, warn)
    },
  }
}

/** Runs the `restore` option's restore on a simulator just made: when it is refused, nothing half-made stays running. */
function restoreInto(sim: SimulatorCore, restore: () => void): void {
  try {
    restore()
  } catch (error) {
    // Every timer of what was restored stops, the scenarios folder closes.
    sim.close()
    if (error instanceof ValidationError) failInProcess(error, 'create')
    throw error
  }
}

/** The options the default state is made from, beside its scenario: what a snapshot records of the start. */
function startOptionsOf(options: SimulatorOptions, checked: CheckedOptions, seed: number | undefined): Omit<StartOptions, 'scenario'> {
  const { latency, rateLimit, faults, lifecycle } = checked
  return { seed, exposeStatus: options.exposeStatus, afterCancel: options.afterCancel, latency, rateLimit, faults, lifecycle }
}

/**
 * Creates an independent simulator of the Petstore Orders Service, with no
 * transport: its own orders, keys, controls, journal and sessions. `platform`
 * is what only some runtimes have (core/platform.ts); its `generation` must be
 * loaded already when the first scenario generates (later resets wait for it).
 */
export function createSimulatorCore(options: SimulatorOptions, platform: Platform): SimulatorCore {
  const { seed, ...checked } = mapValidation(
    () => ({ ...checkOptions(options), proxy: proxyOf(options, platform), seed: checkSeed(options.seed) }),
    (error) => failInProcess(error, 'create'),
  )
  // The one time source of this simulator: every time read and timer below goes through it.
  const time = options.time ?? systemTime
  const folder = openFolder(options.scenariosDir, platform, time)
  const factory = createInstanceFactory(options, checked, platform, folder, time)
  let root: SimulatorInstance
  // Made first (it reads the root's scenario only when a session starts): the root's recordings share its bound.
  const sessions = createSessions(checked, () => root.active, factory.create, time.now, weigh)
  let start: { scenario: CheckedScenario; source: string }
  try {
    start = factory.resolve(options.scenario ?? 'default')
    root = factory.create(factory.activate(start.scenario, start.source, seed), undefined, sessions.chargeDefault)
  } catch (error) {
    folder?.close()
    throw error
  }
  const snapshots = snapshotsFor(platform, {
    factory,
    start: { ...start, given: options.scenario },
    startOptions: startOptionsOf(options, checked, seed),
    root: () => root,
    sessions,
    limits: checked,
    now: time.now,
  })

  // One reporter: the dispatcher's 500s and sim.fetch's replies Fetch could not build go to the same onError.
  const report = errorReporter(options.onError)
  const dispatcher = createDispatcher({
    base: checked.base,
    instanceFor(request, named) {
      if (named === null) return root
      // Only a request with an accepted key makes a session: others cannot fill memory with them.
      const beforeCreate = (active: typeof root.active) => assertAuthorized(request.header('Authorization'), active.settings.acceptedKeys)
      return mapValidation(
        () => sessions.get(named.id, beforeCreate),
        (error) => failRequest(named.from === 'baggage' ? fromBaggage(error, named.id) : error),
      )
    },
    journal: root.journal,
    config: { deprecation: checked.deprecation },
    fallthrough: options.fallthrough ?? false,
    bodyLimit: checked.bodyLimit,
    report,
    time,
    proxy: checked.proxy,
  })

  const view = (sessionId: string | null, fail: FailValidation) => {
    if (sessionId === null) return createView(() => root, factory, checked, fail)
    mapValidation(
      () => sessions.get(sessionId),
      (error) => fail(error, 'open a session of'),
    )
    return createView(() => sessions.get(sessionId), factory, checked, fail)
  }
  const sim: SimulatorCore = Object.assign(view(null, failInProcess), {
    fetch: createSimFetch({ dispatcher, base: checked.base, fallbackFetch: options.fallbackFetch, report }),
    session: (id: string) => view(id, failInProcess),
    sessions: () => sessions.list(),
    endSession: (id: string) => sessions.end(id),
    snapshot: () => snapshots.take(),
    close() {
      factory.close()
      root.lifecycle.stop()
      sessions.close()
    },
  })
  if (options.restore !== undefined) restoreInto(sim, () => snapshots.restore(options.restore, options.onRestoreWarning ?? warnOperator))
  const revision = (sessionId: string | null) => {
    const { store, journal, coverage } = sessionId === null ? root : sessions.get(sessionId)
    return { orders: store.version(), ...journal.revision(), coverage: coverage.revision() }
  }
  const records = { all: () => root.store.all(), replace: (next: readonly OrderRecord[]) => root.store.replaceAll(next) }
  return attachInternals(sim, {
    dispatcher,
    base: checked.base,
    bodyLimit: checked.bodyLimit,
    journal: root.journal,
    view,
    revision,
    records,
    folder,
    sessionBytes: () => sessions.bytes(),
    hasSession: (id: string) => sessions.has(id),
    stateRevision: () => weigh(root) + sessions.revision(),
  })
}
