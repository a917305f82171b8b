import { expect } from 'vitest'
import type { SimulatorView } from './core/simulator/types.js'
import { checkTimes, parseRequestFilter, type RequestFilter, verifyReceived } from './core/state/request-filter.js'

interface ReceivedMatchers<R = unknown> {
  /**
   * Passes when the simulator (or session) received a request matching `filter`:
   * at least once, or exactly `times`. The failure message lists what it received.
   * @example
   * expect(sim).toHaveReceived({ operation: 'cancelOrder', orderId: 5, status: 204 }, { times: 1 })
   */
  toHaveReceived(filter?: RequestFilter, options?: { times?: number }): R
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: vitest declares Assertion<T = any>; a merged declaration must repeat it.
  interface Assertion<T = any> extends ReceivedMatchers<T> {}
}

function isView(value: unknown): value is SimulatorView {
  return typeof value === 'object' && value !== null && typeof (value as SimulatorView).requests === 'function' && 'journal' in value
}

// Registered once, on import: `import 'petstore-orders-simulator/vitest'` in a setup file or a test.
expect.extend({
  toHaveReceived(received: unknown, filter?: RequestFilter, options: { times?: number } = {}) {
    if (!isView(received)) {
      return {
        pass: false,
        message: () => 'toHaveReceived expects a simulator or one of its sessions (createSimulator(), sim.session(id)).',
      }
    }
    checkTimes(options.times)
    const matching = received.requests(filter)
    const checked = parseRequestFilter(filter)
    const { pass, message } = verifyReceived(matching.length, received.journal.entries(), checked, options.times)
    return { pass, message: () => message(this.isNot) }
  },
})
