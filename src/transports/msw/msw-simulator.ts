import { generateOrders } from '../../core/scenario/generate-orders.js'
import { eagerGeneration } from '../../core/scenario/order-generation.js'
import { openScenarioFolder } from '../../core/scenario/scenario-folder.js'
import type { SimulatorOptions } from '../../core/simulator/types.js'
import { buildSimulator, type Simulator } from './build-simulator.js'

export type { Simulator } from './build-simulator.js'

/**
 * Creates an independent simulator of the Petstore Orders Service: its own
 * orders, keys and handlers. Two simulators never see each other's state.
 *
 * @example
 * const sim = createSimulator({ scenario: 'pending' })
 * const server = setupServer(...sim.handlers)
 * server.listen()
 * await fetch('https://api.petstore.example/v1/store/orders/1', {
 *   method: 'DELETE',
 *   headers: { Authorization: 'Bearer petstore-test-key' },
 * }) // 204
 * sim.orders()[0].status // 'cancelled'
 */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return buildSimulator(options, eagerGeneration(generateOrders), openScenarioFolder)
}
