import { assertSupportedMsw } from './transports/msw/msw-support.js'
// Imported, not loaded on first use: Jest's ES module mode can load msw no other way before Node.js 24.9.
// Without msw, require() of this module says so in one line (cjs/node.cts); import names msw in Node's own line.
import { http } from 'msw'
import { setupServer, type SetupServer } from 'msw/node'
import type { SimulatorOptions } from './core/simulator/types.js'
import { nodePlatform } from './platform/node/node-platform.js'
import { buildSimulator, type Simulator } from './transports/msw/build-simulator.js'
import { requiredGeneration } from './transports/msw/required-generation.js'
import { withUnhandledStrategy, type UnhandledRequestStrategy } from './transports/msw/unhandled-requests.js'

// Before anything reaches msw: one clear line if it cannot run here.
assertSupportedMsw()

export interface NodeSimulatorOptions extends SimulatorOptions {
  /**
   * What `server.listen()` does with a request no handler takes (default:
   * msw's, `'warn'`). One spelling for both msw majors: it reaches msw 2 as
   * `onUnhandledRequest` and msw 3 as `onUnhandledFrame`.
   */
  onUnhandledRequest?: UnhandledRequestStrategy
}

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
 * const { sim, server } = setupSimulatorServer({ scenario: 'pending', onUnhandledRequest: 'error' })
 * beforeAll(() => server.listen())
 * beforeEach(() => sim.reset())
 * afterAll(() => server.close())
 * @note `server.listen()` also takes `onUnhandledRequest` or `onUnhandledFrame`
 * and passes it on under the name the installed msw reads.
 */
export function setupSimulatorServer(options: NodeSimulatorOptions = {}): NodeSimulator {
  const { onUnhandledRequest, ...simulatorOptions } = options
  const sim = createSimulator(simulatorOptions)
  const server = setupServer(...sim.handlers)
  const listen = server.listen.bind(server)
  server.listen = (listenOptions) => listen(withUnhandledStrategy(server, listenOptions, undefined, onUnhandledRequest))
  return { sim, server }
}

/** `createSimulator` with msw imported with the code (Node only: it reads a scenarios folder). */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return buildSimulator(options, nodePlatform(requiredGeneration()), () => ({ http }))
}

export type { Simulator } from './transports/msw/build-simulator.js'
export { pactFile, writePact } from './transports/node/write-pact.js'
export { writeCoverage } from './transports/node/write-coverage.js'
export type { Coverage } from './core/outcome-coverage/coverage-counter.js'
export type { PactDocument } from './core/pact/pact-document.js'
export type { PactOptions } from './core/pact/pact-names.js'
export type { SimulatorOptions } from './core/simulator/types.js'
export type { SimulatorSnapshot } from './core/simulator/snapshot-schema.js'
export type { UnhandledRequestStrategy } from './transports/msw/unhandled-requests.js'
