import type { HttpHandler } from 'msw'
import { internalsOf } from '../../core/simulator/internals.js'
import { createSimulatorCore } from '../../core/simulator/simulator.js'
import type { SimulatorCore, SimulatorOptions } from '../../core/simulator/types.js'
import { createHandlers } from './handlers.js'

export interface Simulator extends SimulatorCore {
  /** The msw request handlers; hand them to `setupServer(...)` or `setupWorker(...)`. */
  readonly handlers: readonly HttpHandler[]
}

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
  const sim = createSimulatorCore(options)
  const { base, dispatcher } = internalsOf(sim)
  return Object.assign(sim, { handlers: createHandlers(base, dispatcher) })
}
