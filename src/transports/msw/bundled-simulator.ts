import { generateOrders } from '../../core/scenario/generate-orders.js'
import { eagerGeneration } from '../../core/scenario/order-generation.js'
import type { SimulatorOptions } from '../../core/simulator/types.js'
import { buildSimulator, type Simulator } from './build-simulator.js'
import { bundledMsw } from './bundled-msw.js'

/**
 * `createSimulator` where msw is imported with the code: in a page
 * (`petstore-orders-simulator/browser`) and in the standalone server.
 */
export function createBundledSimulator(options: SimulatorOptions = {}): Simulator {
  return buildSimulator(options, eagerGeneration(generateOrders), bundledMsw)
}
