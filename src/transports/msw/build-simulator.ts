import type { HttpHandler } from 'msw'
import type { Platform } from '../../core/platform.js'
import { internalsOf } from '../../core/simulator/internals.js'
import { createSimulatorCore } from '../../core/simulator/simulator.js'
import type { SimulatorCore, SimulatorOptions } from '../../core/simulator/types.js'
import { createHandlers, type MswHttp } from './handlers.js'

export interface Simulator extends SimulatorCore {
  /** The msw request handlers; hand them to `setupServer(...)` or `setupWorker(...)`. Needs msw; `fetch` does not. */
  readonly handlers: readonly HttpHandler[]
}

/**
 * A simulator on `platform` (Node's, or a page's) with its msw handlers,
 * made on first read from `msw()`, which throws one line when msw is
 * missing: a simulator that is only fetched from never needs msw.
 */
export function buildSimulator(options: SimulatorOptions, platform: Platform, msw: () => MswHttp): Simulator {
  const sim = createSimulatorCore(options, platform)
  const { base, dispatcher } = internalsOf(sim)
  let handlers: readonly HttpHandler[] | undefined
  // Enumerable, as a plain property would be: a copy made with spread (`{ ...sim, handlers }`) has them too.
  return Object.defineProperty(sim, 'handlers', {
    get: () => (handlers ??= createHandlers(msw(), base, dispatcher)),
    enumerable: true,
  }) as Simulator
}
