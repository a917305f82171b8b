import { setupWorker, type SetupWorker, type StartOptions as WorkerStartOptions } from 'msw/browser'
import type { SimulatorCore, SimulatorOptions } from './core/simulator/types.js'
import type { DevtoolsHandle, DevtoolsOptions } from './devtools/mount-devtools.js'
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
  /** Draw the in-page panel (`mountDevtools`) once the worker has started. Its code is loaded only then. */
  devtools?: boolean
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
  const { start, onUnhandledRequest, devtools, ...simulatorOptions } = options
  const sim = createSimulator(simulatorOptions)
  const worker = setupWorker(...sim.handlers)
  await worker.start(withUnhandledStrategy(worker, start, onUnhandledRequest, 'bypass'))
  if (devtools === true) await mountDevtools(sim)
  return Object.assign(sim, { worker })
}

/**
 * Draws a small collapsible panel in the page that steers `sim`: scenario and
 * reset, fault presets, latency, the orders and the last requests, in a
 * shadow root. Async because its code is its own chunk, fetched on first call:
 * a page that never calls it never downloads it.
 *
 * @example
 * const sim = await startSimulatorWorker()
 * const devtools = await mountDevtools(sim, { open: true })
 * // later: devtools.unmount()
 */
export async function mountDevtools(sim: SimulatorCore, options?: DevtoolsOptions): Promise<DevtoolsHandle> {
  const devtools = await import('./devtools/mount-devtools.js')
  return devtools.mountDevtools(sim, options)
}

export { createSimulator, type Simulator } from './transports/msw/msw-simulator.js'
export type { SimulatorOptions } from './core/simulator/types.js'
export { ErrorCode } from './core/error-codes.js'
export { BUILTIN_SCENARIOS } from './core/scenario/builtin-scenarios.js'
export type { ErrorBody, Order, OrderStatus } from './core/glossary.js'
export type { Scenario } from './core/scenario/scenario.js'
export type { UnhandledRequestStrategy } from './transports/msw/unhandled-requests.js'
export type { DevtoolsHandle, DevtoolsOptions } from './devtools/mount-devtools.js'
