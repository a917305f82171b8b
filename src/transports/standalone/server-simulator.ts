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
 * The standalone server's simulator, whose msw is loaded with the express app
 * (the only part of the server that answers through msw's handlers), not at
 * start: msw's module code is most of what a start would otherwise run and
 * hold (docs/performance.md). `mswLoaded` takes the bundled msw once it is
 * imported; `sim.handlers` read before then loads the installed msw.
 */
export function createServerSimulator(
  options: SimulatorOptions,
  generation: OrderGeneration,
): { sim: Simulator; mswLoaded(msw: () => MswHttp): void } {
  let bundled: (() => MswHttp) | undefined
  const sim = buildSimulator(
    options,
    generation,
    () => (bundled === undefined ? requireMsw<MswHttp>('sim.handlers') : bundled()),
    NODE_SCENARIO_FILES,
  )
  return {
    sim,
    mswLoaded(msw) {
      bundled = msw
    },
  }
}
