import { lazyGeneration, type OrderGeneration } from '../../core/scenario/order-generation.js'
import { NODE_SCENARIO_FILES } from '../../core/scenario/node-scenario-files.js'
import type { SimulatorOptions } from '../../core/simulator/types.js'
import { buildSimulator, type Simulator } from '../msw/build-simulator.js'
import type { MswHttp } from '../msw/handlers.js'
import { requireMsw } from '../msw/require-msw.js'

/** The order generator (faker's code), loaded when a scenario first needs it: most starts do not. */
export function serverGeneration(): OrderGeneration {
  return lazyGeneration(async () => (await import('../../core/scenario/generate-orders.js')).generateOrders)
}

/**
 * The standalone server's simulator. The server answers without msw; msw loads
 * only if something reads `sim.handlers` (a user's own msw server).
 */
export function createServerSimulator(options: SimulatorOptions, generation: OrderGeneration): Simulator {
  return buildSimulator(options, generation, () => requireMsw<MswHttp>('sim.handlers'), NODE_SCENARIO_FILES)
}
