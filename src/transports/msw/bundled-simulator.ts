// Imported, not loaded on first use: what imports this module bundles msw (a page, the CLI) or needs it anyway (the server).
import * as msw from 'msw'
import { generateOrders } from '../../core/scenario/generate-orders.js'
import { eagerGeneration } from '../../core/scenario/order-generation.js'
import type { SimulatorOptions } from '../../core/simulator/types.js'
import { buildSimulator, type Simulator } from './build-simulator.js'

/**
 * `createSimulator` where msw is imported with the code: in a page
 * (`petstore-orders-simulator/browser`) and in the standalone server.
 */
export function createBundledSimulator(options: SimulatorOptions = {}): Simulator {
  return buildSimulator(options, eagerGeneration(generateOrders), () => msw)
}
