import { jsonText } from '../json-text.js'
import { createControls, type Controls } from '../controls/controls.js'
import { createCoverageCounter } from '../outcome-coverage/coverage-counter.js'
import { parseLatencySettings } from '../controls/latency.js'
import { parseRateLimit } from '../controls/rate-limit.js'
import type { Instance } from '../dispatch/request-context.js'
import type { Platform, ScenarioFolder } from '../platform.js'
import { errorReporter } from '../dispatch/error-reporter.js'
import type { DeprecationDates } from '../glossary.js'
import { parseLifecycle, type LifecycleRule } from '../lifecycle/lifecycle-rule.js'
import { createOrderLifecycle, type OrderLifecycle } from '../lifecycle/order-lifecycle.js'
import { isBuiltinScenarioName, looksLikePath, resolveScenario } from '../scenario/load-scenario.js'
import type { GenerateOrders } from '../scenario/order-generator.js'
import { materializeOrders } from '../scenario/materialize-orders.js'
import { GeneratorNotLoaded, generatorNeeded, type OrderGeneration } from '../scenario/order-generation.js'
import type { CheckedScenario } from '../scenario/parse-scenario.js'
import type { Scenario } from '../scenario/scenario.js'
import { ScenarioError } from '../scenario/scenario-error.js'
import { createJournal } from '../state/journal.js'
import { type BaseOrders, createBaseOrders } from '../state/base-orders.js'
import { createOrderStore, type OrderRecord } from '../state/order-store.js'
import { createRouteBook } from '../routes/route-book.js'
import { baseRepeated } from '../routes/parse-routes.js'
import type { OperationState } from '../operations/operation.js'
import type { TimeSource } from '../time-source.js'
import type { CheckedOptions } from './options.js'
import { remembered, scenarioCache } from './scenario-cache.js'
import type { SimulatorOptions } from './types.js'

/** A scenario ready to load: checked, its orders made, its settings merged with the simulator's options. */
export interface ActiveScenario {
  scenario: CheckedScenario
  source: string
  seed: number | undefined
  initialOrders: readonly OrderRecord[]
  settings: ReturnType<OperationState['settings']> & { lifecycle: LifecycleRule | null; deprecation: DeprecationDates }
}

/** One independent state with the scenario it was loaded from. */
export interface SimulatorInstance extends Instance {
  active: ActiveScenario
  /** Its simulated clock, and the orders it will ship. */
  lifecycle: OrderLifecycle
  /** Every key is refused (the provider state "the key is not accepted") until a teardown or the next reset. */
  keysRefused: boolean
  /** What its lifecycle's schedule of the last load holds, as counted against a session's bound (`charge`). */
  scheduleBytes: number
}

/** What a lifecycle holds per order it will ship: its entry in the schedule and the index by id. */
const SCHEDULED_ORDER_BYTES = 128

/** What a load of `active` schedules: each pending order, when the scenario's orders ship on their own. */
function scheduleBytesOf(active: ActiveScenario): number {
  if (active.settings.lifecycle === null) return 0
  let pending = 0
  for (const order of active.initialOrders) if (order.status === 'pending') pending++
  return pending * SCHEDULED_ORDER_BYTES
}

const NO_KEYS: ReadonlySet<string> = new Set()

/** Loads scenarios and makes states for one simulator, its options applied. */
export interface InstanceFactory {
  /** The scenarios folder (`scenariosDir`), whose files are scenarios by name beside the built-in ones. */
  folder: ScenarioFolder | undefined
  /** Checks a scenario (a built-in name, a folder's, a file's path or an object); throws a `ScenarioError` when it is bad. */
  resolve(input: string | Scenario): { scenario: CheckedScenario; source: string }
  /** The name or path `resolve` was given for `scenario`, or undefined when it was given as an object: what a snapshot names. */
  refOf(scenario: CheckedScenario): string | undefined
  /** What `activate` must wait for first: the generator's load, when the scenario generates at `seed` and it is not loaded. */
  ready(scenario: CheckedScenario, seed: number | undefined): Promise<unknown> | undefined
  activate(scenario: CheckedScenario, source: string, seed: number | undefined): ActiveScenario
  /**
   * A fresh, independent state at the initial state of `active`, sharing its orders with every other
   * state of it. A session's state passes `charge`, told of the bytes the state holds of its own (it
   * throws past the sessions' bound); `routeCharge`, of its recordings alone (the default state's).
   */
  create(active: ActiveScenario, charge?: (bytes: number) => void, routeCharge?: (bytes: number) => void): SimulatorInstance
  /** Puts a state back to the initial state of `next`, its controls restored and its clock restarted. */
  reload(instance: SimulatorInstance, next: ActiveScenario): Promise<void>
  /** From now on, states made have no timers: the simulator was closed. */
  close(): void
}

/** The seed the lifecycle draws its delays from: the one in force, else the generator's, so that runs repeat. */
function lifecycleSeed(active: ActiveScenario): number {
  return active.seed ?? active.scenario.generate?.seed ?? 0
}

/** A scenario by name from the folder, or `resolveScenario`'s: the built-in ones win, and a path is read as a path (by `loadFile`). */
function resolverWith(folder: ScenarioFolder | undefined, loadFile: Platform['loadFile']): InstanceFactory['resolve'] {
  return (input) => {
    if (folder === undefined || typeof input !== 'string' || isBuiltinScenarioName(input) || looksLikePath(input))
      return resolveScenario(input, loadFile)
    const found = folder.load(input)
    if (found !== undefined) return found
    const names = folder
      .list()
      .filter((entry) => entry.error === null)
      .map((entry) => entry.name)
    throw new ScenarioError(
      input,
      `neither a built-in scenario nor a file of the scenarios folder ${folder.dir} has this name ` +
        `(its scenarios: ${names.length === 0 ? 'none' : names.join(', ')})`,
    )
  }
}

/**
 * `resolve`, refusing a scenario with a route whose path repeats the base: the one place every scenario
 * passes (the option, a reset to a name, a file or an object, a folder's file), and the base is known.
 */
function refusingBaseRepeated(resolve: InstanceFactory['resolve'], basePath: string): InstanceFactory['resolve'] {
  return (input) => {
    const resolved = resolve(input)
    const repeated = baseRepeated(resolved.scenario.routes ?? [], basePath)
    if (repeated !== undefined) throw new ScenarioError(resolved.source, repeated.problem, repeated.field)
    return resolved
  }
}

/** The controls of a fresh load: the simulator's options win over the scenario's; faults add up. */
function restoreControls(checked: CheckedOptions, controls: Controls, scenario: CheckedScenario): void {
  controls.setLatency(checked.latency ?? (scenario.latency === undefined ? {} : parseLatencySettings(scenario.latency)))
  controls.clearFaults()
  for (const fault of [...checked.faults, ...(scenario.faults ?? [])]) controls.addFault(fault)
  controls.setRateLimit(checked.rateLimit ?? (scenario.rateLimit === undefined ? null : parseRateLimit(scenario.rateLimit)))
}

/** The generator as scenarios use it: the loaded one, or an error a first scenario's maker can act on. */
function generatorOf(generation: OrderGeneration): GenerateOrders {
  return (...args) => {
    const loaded = generation.loaded()
    // Resets await ready() first; only a simulator's first scenario can get here, and its maker loads the generator and tries again.
    if (loaded === undefined) {
      throw new GeneratorNotLoaded(
        "This scenario generates orders, and faker, which makes them, cannot be loaded in one step here (Jest's ES module mode before Node.js 24.9). " +
          'Start with a scenario that lists its orders, then `await sim.reset(scenario)`, which imports faker first.',
      )
    }
    return loaded(...args)
  }
}

/** `time` is the simulator's one time source: each state's rate-limit windows and lifecycle read it. */
export function createInstanceFactory(
  options: SimulatorOptions,
  checked: CheckedOptions,
  { generation, loadFile }: Platform,
  folder: ScenarioFolder | undefined,
  time: TimeSource,
): InstanceFactory {
  const resolve = refusingBaseRepeated(resolverWith(folder, loadFile), checked.base.path)
  const report = errorReporter(options.onError)
  let closed = false
  const generate = generatorOf(generation)
  /** Each date: the option's when given, else the scenario's, else the default (`checked` holds option-or-default). */
  function deprecationOf(scenario: CheckedScenario): DeprecationDates {
    const pick = (name: keyof DeprecationDates): Date => {
      const own = scenario.deprecation?.[name]
      return options.deprecation?.[name] === undefined && own !== undefined ? new Date(own) : checked.deprecation[name]
    }
    return { deprecatedAt: pick('deprecatedAt'), sunsetAt: pick('sunsetAt') }
  }

  function activate(scenario: CheckedScenario, source: string, seed: number | undefined): ActiveScenario {
    const petBodies = new Map(Object.entries(scenario.pets ?? {}).map(([petId, pet]) => [petId, jsonText(pet)]))
    return {
      scenario,
      source,
      seed,
      initialOrders: materializeOrders(scenario, source, seed, generate),
      settings: {
        acceptedKeys: new Set(scenario.apiKeys),
        exposeStatus: options.exposeStatus ?? scenario.exposeStatus ?? false,
        afterCancel: options.afterCancel ?? scenario.afterCancel ?? 'keep',
        petBodies,
        // The option wins, `null` included: it turns a scenario's lifecycle off.
        lifecycle: checked.lifecycle !== undefined ? checked.lifecycle : parseLifecycle(scenario.lifecycle ?? null),
        deprecation: deprecationOf(scenario),
      },
    }
  }

  // One shared, indexed copy of each scenario's initial orders, whatever the number of states reset to them.
  const bases = new WeakMap<readonly OrderRecord[], BaseOrders<OrderRecord>>()
  const baseOf = (records: readonly OrderRecord[]) => remembered(bases, records, () => createBaseOrders(records))
  const cache = scenarioCache(resolve, activate)
  // Weak: a scenario no state holds any more is forgotten with its name.
  const refs = new WeakMap<CheckedScenario, string>()
  return {
    folder,
    resolve(input) {
      const resolved = cache.resolve(input)
      if (typeof input === 'string') refs.set(resolved.scenario, input)
      return resolved
    },
    refOf: (scenario) => refs.get(scenario),
    ready: (scenario, seed) => generatorNeeded(generation, scenario, seed),
    activate: cache.activate,
    create(active, charge, routeCharge = charge) {
      // Before anything is made: a session whose schedule passes the sessions' bound is refused whole.
      const scheduleBytes = scheduleBytesOf(active)
      charge?.(scheduleBytes)
      const store = createOrderStore({ base: baseOf, ...(charge === undefined ? {} : { charge }) })
      const instance: SimulatorInstance = {
        store,
        ...(charge === undefined ? {} : { charge }),
        controls: createControls(Math.random, time.now),
        journal: createJournal(checked.journalSize),
        routes: createRouteBook(active.scenario.routes ?? [], routeCharge),
        coverage: createCoverageCounter({ basePath: checked.base.path }),
        lifecycle: createOrderLifecycle(store, (error) => report(error, 'Shipping orders on their own (lifecycle)'), time),
        active,
        keysRefused: false,
        scheduleBytes,
        // A refusal is rare and short (one pact interaction): the copy is made only then.
        settings: () => (instance.keysRefused ? { ...instance.active.settings, acceptedKeys: NO_KEYS } : instance.active.settings),
      }
      // Readers and requests see the orders at once; nothing needs to wait for the model.
      void instance.store.replaceAll(active.initialOrders)
      restoreControls(checked, instance.controls, active.scenario)
      if (closed) instance.lifecycle.stop()
      instance.lifecycle.restart(active.settings.lifecycle, lifecycleSeed(active), active.initialOrders)
      return instance
    },
    reload(instance, next) {
      const scheduleBytes = scheduleBytesOf(next)
      instance.charge?.(scheduleBytes - instance.scheduleBytes)
      instance.scheduleBytes = scheduleBytes
      const stored = instance.store.replaceAll(next.initialOrders)
      instance.active = next
      instance.routes.reset(next.scenario.routes ?? [])
      instance.keysRefused = false
      restoreControls(checked, instance.controls, next.scenario)
      instance.lifecycle.restart(next.settings.lifecycle, lifecycleSeed(next), next.initialOrders)
      return stored
    },
    close() {
      closed = true
      folder?.close()
    },
  }
}
