import { expect } from 'vitest'
import { type ReceivedMatchers, toHaveReceived } from './core/simulator/to-have-received.js'
import type { RequestFilter } from './core/state/request-filter.js'

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: vitest declares Assertion<T = any>; a merged declaration must repeat it.
  interface Assertion<T = any> extends ReceivedMatchers<T> {}
}

// Registered once, on import: `import 'petstore-orders-simulator/vitest'` in a setup file or a test.
expect.extend({
  toHaveReceived(received: unknown, filter?: RequestFilter, options?: { times?: number }) {
    return toHaveReceived(this.isNot, received, filter, options)
  },
})
