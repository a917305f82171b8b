import { setupWorker, type SetupWorker, type StartOptions } from 'msw/browser'
import { createSimulator, type Simulator, type SimulatorOptions } from './simulator.js'
import { withUnhandledStrategy, type UnhandledRequestStrategy } from './unhandled-requests.js'

export interface WorkerSimulatorOptions extends SimulatorOptions {
  /**
   * What the worker does with a request no handler takes. Default `'bypass'`,
   * so the rest of your app keeps talking to its real back ends. One spelling
   * for both msw majors: it reaches msw 2 as `onUnhandledRequest` and msw 3 as
   * `onUnhandledFrame`.
   */
  onUnhandledRequest?: UnhandledRequestStrategy
  /** Passed to msw's `worker.start()` (either name of the option above is passed on under the right one). */
  start?: StartOptions
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

export { createSimulator } from './simulator.js'
export type { Simulator, SimulatorOptions } from './simulator.js'
export { ErrorCode } from './error-codes.js'
export { BUILTIN_SCENARIOS } from './scenario/builtin-scenarios.js'
export type { ErrorBody, Order, OrderStatus, Scenario } from './glossary.js'
export type { UnhandledRequestStrategy } from './unhandled-requests.js'
