import { setupServer, type SetupServer } from 'msw/node'
import { createSimulator, type Simulator, type SimulatorOptions } from './simulator.js'

export interface NodeSimulator {
  sim: Simulator
  /** msw's server, already holding the simulator's handlers; call `listen()` in beforeAll. */
  server: SetupServer
}

/**
 * A simulator and an msw `setupServer` around its handlers, for a Node test
 * suite. Nothing listens until you call `server.listen()`.
 *
 * @example
 * const { sim, server } = setupSimulatorServer({ scenario: 'pending' })
 * beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
 * beforeEach(() => sim.reset())
 * afterAll(() => server.close())
 */
export function setupSimulatorServer(options: SimulatorOptions = {}): NodeSimulator {
  const sim = createSimulator(options)
  return { sim, server: setupServer(...sim.handlers) }
}

export { createSimulator } from './simulator.js'
export type { Simulator, SimulatorOptions } from './simulator.js'
