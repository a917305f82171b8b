import { setupWorker, type SetupWorker, type StartOptions as WorkerStartOptions } from 'msw/browser'
import type { SimulatorOptions } from './core/simulator/types.js'
import { createSimulator, type Simulator } from './transports/msw/msw-simulator.js'
import { withUnhandledStrategy, type UnhandledRequestStrategy } from './transports/msw/unhandled-requests.js'

export interface WorkerSimulatorOptions extends SimulatorOptions {
  /**
   * What the worker does with a request no handler takes. Default `'bypass'`,
   * so the rest of your app keeps talking to its real back ends. One spelling
   * for both msw majors: it reaches msw 2 as `onUnhandledRequest` and msw 3 as
   * `onUnhandledFrame`.
   */
  onUnhandledRequest?: UnhandledRequestStrategy
  /** Passed to msw's `worker.start()` (either name of the option above is passed on under the right one). */
  start?: WorkerStartOptions
}

export interface WorkerSimulator extends Simulator {
  /** The msw worker; `worker.stop()` stops intercepting. */
  worker: SetupWorker
}

/**
 * Creates a simulator and starts an msw service worker with its handlers, in
 * the browser. Resolves once the worker controls the page, so the app's first
 * request is already answered by the simulator.
 *
 * @example
 * if (import.meta.env.DEV) {
 *   const { startSimulatorWorker } = await import('petstore-orders-simulator/browser')
 *   const sim = await startSimulatorWorker({ scenario: 'pending' })
 *   // later: sim.reset('shipped')
 * }
 * @note Serve msw's worker script at the root of your site first:
 * `npx msw init public/` copies the one that matches your installed msw.
 */
export async function startSimulatorWorker(options: WorkerSimulatorOptions = {}): Promise<WorkerSimulator> {
  const { start, onUnhandledRequest, ...simulatorOptions } = options
  const sim = createSimulator(simulatorOptions)
  const worker = setupWorker(...sim.handlers)
  await worker.start(withUnhandledStrategy(worker, start, onUnhandledRequest, 'bypass'))
  return Object.assign(sim, { worker })
}

export { createSimulator, type Simulator } from './transports/msw/msw-simulator.js'
export type { SimulatorOptions } from './core/simulator/types.js'
export { ErrorCode } from './core/error-codes.js'
export { BUILTIN_SCENARIOS } from './core/scenario/builtin-scenarios.js'
export type { ErrorBody, Order, OrderStatus } from './core/glossary.js'
export type { Scenario } from './core/scenario/scenario.js'
export type { UnhandledRequestStrategy } from './transports/msw/unhandled-requests.js'
