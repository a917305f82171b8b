import { stringify } from 'lossless-json'
import { createControls, type Controls } from '../controls/controls.js'
import { parseLatencySettings } from '../controls/latency.js'
import { parseRateLimit } from '../controls/rate-limit.js'
import type { Instance } from '../dispatch/dispatcher.js'
import type { AfterCancel } from '../glossary.js'
import { resolveScenario } from '../scenario/load-scenario.js'
import { materializeOrders } from '../scenario/materialize-orders.js'
import type { CheckedScenario } from '../scenario/parse-scenario.js'
import type { Scenario } from '../scenario/scenario.js'
import { createJournal } from '../state/journal.js'
import { createOrderStore, type OrderRecord } from '../state/order-store.js'
import type { CheckedOptions } from './options.js'
import type { SimulatorOptions } from './types.js'

/** A scenario ready to load: checked, its orders made, its settings merged with the simulator's options. */
export interface ActiveScenario {
  scenario: CheckedScenario
  source: string
  seed: number | undefined
  initialOrders: readonly OrderRecord[]
  settings: {
    acceptedKeys: ReadonlySet<string>
    exposeStatus: boolean
    afterCancel: AfterCancel
    petBodies: ReadonlyMap<string, string>
  }
}

/** One independent state with the scenario it was loaded from. */
export interface SimulatorInstance extends Instance {
  active: ActiveScenario
}

/** Loads scenarios and makes states for one simulator, its options applied. */
export interface InstanceFactory {
  activate(scenario: CheckedScenario, source: string, seed: number | undefined): ActiveScenario
  load(input: string | Scenario, seed: number | undefined): ActiveScenario
  /** A fresh, independent state at the initial state of `active`. */
  create(active: ActiveScenario): SimulatorInstance
  /** Puts a state back to the initial state of `next`, its controls restored. */
  reload(instance: SimulatorInstance, next: ActiveScenario): Promise<void>
}

export function createInstanceFactory(options: SimulatorOptions, checked: CheckedOptions): InstanceFactory {
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

  /** The controls of a fresh load: the simulator's options win over the scenario's; faults add up. */
  function restoreControls(controls: Controls, scenario: CheckedScenario): void {
    controls.setLatency(checked.latency ?? (scenario.latency === undefined ? {} : parseLatencySettings(scenario.latency)))
    controls.clearFaults()
    for (const fault of [...checked.faults, ...(scenario.faults ?? [])]) controls.addFault(fault)
    controls.setRateLimit(checked.rateLimit ?? (scenario.rateLimit === undefined ? null : parseRateLimit(scenario.rateLimit)))
  }

  return {
    activate,
    load(input, seed) {
      const { scenario, source } = resolveScenario(input)
      return activate(scenario, source, seed)
    },
    create(active) {
      const instance: SimulatorInstance = {
        store: createOrderStore(),
        controls: createControls(),
        journal: createJournal(checked.journalSize),
        active,
        settings: () => instance.active.settings,
      }
      // Readers and requests see the orders at once; nothing needs to wait for the model.
      void instance.store.replaceAll(active.initialOrders)
      restoreControls(instance.controls, active.scenario)
      return instance
    },
    reload(instance, next) {
      const stored = instance.store.replaceAll(next.initialOrders)
      instance.active = next
      restoreControls(instance.controls, next.scenario)
      return stored
    },
  }
}
