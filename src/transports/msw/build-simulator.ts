import type { HttpHandler } from 'msw'
import type { OrderGeneration } from '../../core/scenario/order-generation.js'
import type { openScenarioFolder } from '../../core/scenario/scenario-folder.js'
import { internalsOf } from '../../core/simulator/internals.js'
import { createSimulatorCore } from '../../core/simulator/simulator.js'
import type { SimulatorCore, SimulatorOptions } from '../../core/simulator/types.js'
import { createHandlers } from './handlers.js'

export interface Simulator extends SimulatorCore {
  /** The msw request handlers; hand them to `setupServer(...)` or `setupWorker(...)`. */
  readonly handlers: readonly HttpHandler[]
}

/**
 * A simulator with its msw handlers, its generated orders made by `generation`
 * (eager in Node, lazy in a page), its scenarios folder read by `openScenarios` (Node only).
 */
export function buildSimulator(
  options: SimulatorOptions,
  generation: OrderGeneration,
  openScenarios?: typeof openScenarioFolder,
): Simulator {
  const sim = createSimulatorCore(options, generation, openScenarios)
  const { base, dispatcher } = internalsOf(sim)
  return Object.assign(sim, { handlers: createHandlers(base, dispatcher) })
}
