import { parseFault } from '../controls/faults.js'
import { parseLatencySettings } from '../controls/latency.js'
import { parseRateLimit } from '../controls/rate-limit.js'
import type { Scenario } from '../scenario/scenario.js'
import { toOrder } from '../state/order-store.js'
import { matchesFilter, parseRequestFilter } from '../state/request-filter.js'
import { mapValidation, ValidationError } from '../validation-error.js'
import { parseDuration } from '../lifecycle/duration.js'
import { expectOrderId } from '../int64.js'
import { buildPact } from '../pact/build-pact.js'
import { shownRoute } from '../routes/route-book.js'
import { checkPactNames } from '../pact/pact-names.js'
import { exportScenario } from './export-scenario.js'
import type { InstanceFactory, SimulatorInstance } from './instance.js'
import { checkSeed, type CheckedOptions } from './options.js'
import { addOrder, removeOrder, updateOrder } from './order-edits.js'
import { changeProviderState } from './provider-state-change.js'
import { saveScenario } from './save-scenario.js'
import type { ResetRequest, SimulatorState, SimulatorView } from './types.js'

/** How an edge turns a `ValidationError` into its own failure; `action` says what was being done ("configure", "reset"). */
export type FailValidation = (error: ValidationError, action: string) => never

/**
 * Tells `reset({ scenario, seed })` from `reset(scenarioObject)`: a request
 * has only those two fields. Anything else is read as a scenario, so a
 * scenario that lacks its name is refused rather than taken for a request.
 */
function isResetRequest(value: unknown): value is ResetRequest {
  return typeof value === 'object' && value !== null && Object.keys(value).every((key) => key === 'scenario' || key === 'seed')
}

/** The in-process API over one state; its inputs' errors go to `fail`. */
export function createView(
  target: () => SimulatorInstance,
  factory: InstanceFactory,
  checked: CheckedOptions,
  fail: FailValidation,
): SimulatorView {
  const checkedBy = <T>(action: string, read: () => T): T => mapValidation(read, (error) => fail(error, action))
  /** The async form: a `ValidationError` the change meets (before or inside the store) goes to `fail`. */
  const checkedChange = async <T>(action: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      if (error instanceof ValidationError) fail(error, action)
      throw error
    }
  }
  const controls = () => target().controls
  return {
    get journal() {
      const journal = target().journal
      return { capacity: journal.capacity, entries: () => journal.entries(), clear: () => journal.clear() }
    },
    requests(filter) {
      const checked = checkedBy('read the requests of', () => parseRequestFilter(filter))
      return target().journal.select((record) => matchesFilter(record, checked))
    },
    pact(options) {
      const names = checkedBy('write a pact of', () => checkPactNames(options))
      const { facts, leftOut } = target().journal.pactFacts()
      return buildPact(facts, names, checked.base.path, leftOut)
    },
    coverage() {
      const instance = target()
      return instance.coverage.report(instance.active.settings.deprecation.sunsetAt)
    },
    clearCoverage: () => target().coverage.clear(),
    changeProviderState: (change) => checkedChange('change the provider state of', () => changeProviderState(target(), change)),
    addFault: (fault) => checkedBy('configure', () => controls().addFault(parseFault(fault))),
    faults: () => controls().faults(),
    removeFault: (id) => controls().removeFault(id),
    clearFaults: () => controls().clearFaults(),
    setLatency: (latency) => controls().setLatency(latency === null ? {} : checkedBy('configure', () => parseLatencySettings(latency))),
    latency: () => controls().latency(),
    setRateLimit: (limit) => controls().setRateLimit(limit === null ? null : checkedBy('configure', () => parseRateLimit(limit))),
    rateLimit: () => controls().rateLimit(),
    reset(scenarioOrRequest?: string | Scenario | ResetRequest, resetOptions = {}) {
      const instance = target()
      const request: ResetRequest = isResetRequest(scenarioOrRequest)
        ? { ...scenarioOrRequest, ...resetOptions }
        : { scenario: scenarioOrRequest, ...resetOptions }
      const { active } = instance
      const seed = request.seed === undefined ? active.seed : checkedBy('reset', () => checkSeed(request.seed))
      // Load fully before touching the store: a bad scenario changes nothing.
      if (request.scenario === undefined && seed === active.seed) return factory.reload(instance, active)
      const { scenario, source } = request.scenario === undefined ? active : factory.resolve(request.scenario)
      const activateAndReload = () => factory.reload(instance, factory.activate(scenario, source, seed))
      const ready = factory.ready(scenario, seed)
      return ready === undefined ? activateAndReload() : ready.then(activateAndReload)
    },
    orders: () => target().store.all().map(toOrder),
    order(id) {
      const order = target().store.find(checkedBy('read an order of', () => expectOrderId(id)))
      return order === undefined ? undefined : toOrder(order)
    },
    updateOrder: (id, patch) => checkedChange('update an order of', () => updateOrder(target(), id, patch)),
    addOrder: (order) => checkedChange('add an order to', () => addOrder(target(), order)),
    removeOrder: (id) => checkedChange('remove an order of', () => removeOrder(target(), id)),
    advanceClock: (duration) =>
      checkedChange('advance the clock of', async () => {
        const instance = target()
        await instance.lifecycle.advance(parseDuration(duration, 'advance'))
        return instance.lifecycle.clock()
      }),
    clock: () => target().lifecycle.clock(),
    exportScenario: (options) => checkedBy('export a scenario of', () => exportScenario(target(), options)),
    saveScenario: (name, options) => checkedChange('save a scenario of', () => saveScenario(target(), factory.folder, name, options)),
    scenario() {
      const { active } = target()
      return { name: active.scenario.name, description: active.scenario.description, source: active.source }
    },
    state: () => stateOf(target(), checked),
  }
}

/** What `state()` and `GET /__sim/state` show of one state. */
function stateOf(instance: SimulatorInstance, checked: CheckedOptions): SimulatorState {
  const { active, store } = instance
  return {
    scenario: active.scenario.name,
    description: active.scenario.description,
    source: active.source,
    // As in force: none while a provider state refuses them.
    apiKeys: [...instance.settings().acceptedKeys],
    seed: active.seed ?? null,
    options: {
      baseUrl: checked.baseUrl,
      exposeStatus: active.settings.exposeStatus,
      afterCancel: active.settings.afterCancel,
      lifecycle: active.settings.lifecycle === null ? null : { ...active.settings.lifecycle },
      deprecation: { ...active.settings.deprecation },
      // Where the rest goes, never with its key.
      proxy: checked.proxy === null ? null : { target: checked.proxy.target, record: checked.proxy.record },
    },
    orders: store.all().map(toOrder),
    // Each a copy; a recorded body read as its value now (it is held as bytes).
    routes: instance.routes.list().map(shownRoute),
  }
}
