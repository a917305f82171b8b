import type { SimulatorOptions } from '../../core/simulator/types.js'
import { nodePlatform } from '../../platform/node/node-platform.js'
import { requiredGeneration } from './required-generation.js'
import { buildSimulator, type Simulator } from './build-simulator.js'
import { requireMsw } from './require-msw.js'

export type { Simulator } from './build-simulator.js'

/**
 * Creates an independent simulator of the Petstore Orders Service: its own
 * orders, keys and handlers. Two simulators never see each other's state.
 *
 * @example
 * const sim = createSimulator({ scenario: 'pending' })
 * await sim.fetch('https://api.petstore.example/v1/store/orders/1', {
 *   method: 'DELETE',
 *   headers: { Authorization: 'Bearer petstore-test-key' },
 * }) // 204
 * sim.orders()[0].status // 'cancelled'
 * @note `sim.handlers` (msw's) loads msw on first read; `sim.fetch` needs no msw.
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return buildSimulator(options, nodePlatform(requiredGeneration()), requireMsw)
}
