import { expect } from 'vitest'
import { type ReceivedMatchers, toHaveReceived } from './core/simulator/to-have-received.js'
import type { RequestFilter } from './core/state/request-filter.js'

// Typed through chai's Assertion, which vitest 4 and vitest 5 both map onto their own: vitest 5 changed
// Assertion and Matchers from <T> to <R, T>, and a merged declaration must repeat one list or the other.
declare global {
  namespace Chai {
    interface Assertion extends ReceivedMatchers<void> {}
  }
}

// Registered once, on import: `import 'petstore-orders-simulator/vitest'` in a setup file or a test.
expect.extend({
  toHaveReceived(received: unknown, filter?: RequestFilter, options?: { times?: number }) {
    return toHaveReceived(this.isNot, received, filter, options)
  },
})
