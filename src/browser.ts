// msw is bundled with the page: a missing msw is the bundler's one line (Could not resolve "msw").
// Named, not the namespace: a bundler keeps only what is named (msw's graphql stays out).
import { http } from 'msw'
import type { SetupWorker, StartOptions as WorkerStartOptions } from 'msw/browser'
import { lazyGeneration, withGenerator } from './core/scenario/order-generation.js'
import type { SimulatorCore, SimulatorOptions } from './core/simulator/types.js'
import type { DevtoolsHandle, DevtoolsOptions } from './devtools/mount-devtools.js'
import { buildSimulator, type Simulator } from './transports/msw/build-simulator.js'
import { requiredGeneration } from './transports/msw/required-generation.js'
import { withUnhandledStrategy, type UnhandledRequestStrategy } from './transports/msw/unhandled-requests.js'
import { quote } from './core/quote-value.js'

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
  /**
   * `'session'` keeps the scenario, the controls and the orders in the tab's
   * sessionStorage, so a reload shows the same state; `sim.reset()` clears
   * it. Off by default. Past 1 MiB the state is no longer kept (the console
   * says so once); a storage that cannot be used means a fresh state.
   */
  persist?: 'session'
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
 * request is already answered by the simulator. Faker's code, which generates
 * orders, is loaded only when a scenario generates them at a seed other than
 * a built-in scenario's own (those orders are made ahead of time).
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
  const { start, onUnhandledRequest, persist, devtools, ...simulatorOptions } = options
  if (persist !== undefined && persist !== 'session') {
    throw new TypeError(`Failed to start the simulator: persist must be 'session' or left out, not ${quote(persist)}.`)
  }
  const generation = lazyGeneration(async () => (await import('./core/scenario/generate-orders.js')).generateOrders)
  // Its own chunk: a page that keeps nothing across reloads never loads it.
  const persistence = persist === 'session' ? await import('./transports/browser/session-persistence.js') : undefined
  // Faker's code is loaded only for a scenario that generates orders not made ahead of time: then the simulator is made again.
  const make = async (from: SimulatorOptions) => withGenerator(generation, () => buildSimulator(from, { generation }, () => ({ http })))
  // A stored state this version cannot take back gives a fresh simulator (session-persistence.ts).
  const restored = await persistence?.restoredSimulator(simulatorOptions, make)
  const sim = restored?.sim ?? (await make(simulatorOptions))
  // msw's worker code is a chunk of its own, so that neither chunk is past the 500 kB bundlers warn about.
  const { setupWorker } = await import('msw/browser')
  const worker = setupWorker(...sim.handlers)
  await worker.start(withUnhandledStrategy(worker, start, onUnhandledRequest, 'bypass'))
  restored?.keep((listener) => worker.events.on('response:mocked', () => listener()))
  if (devtools === true) await mountDevtools(sim)
  return Object.assign(sim, { worker })
}

/** A simulator made at once, as `./node`'s: a page's, so no scenario file, folder or proxy (a real key in a page is anyone's). */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  return buildSimulator(options, { generation: requiredGeneration() }, () => ({ http }))
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

export type { Simulator } from './transports/msw/build-simulator.js'
export type { SimulatorOptions } from './core/simulator/types.js'
export type { SimulatorSnapshot } from './core/simulator/snapshot-schema.js'
export { ErrorCode } from './core/error-codes.js'
export { BUILTIN_SCENARIOS } from './core/scenario/builtin-scenarios.js'
export type { ErrorBody, Order, OrderStatus } from './core/glossary.js'
export type { Scenario } from './core/scenario/scenario.js'
export type { UnhandledRequestStrategy } from './transports/msw/unhandled-requests.js'
export type { DevtoolsHandle, DevtoolsOptions } from './devtools/mount-devtools.js'
