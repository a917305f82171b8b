import { expect } from 'bun:test'
import { type ReceivedMatchers, toHaveReceived } from './core/simulator/to-have-received.js'
import type { RequestFilter } from './core/state/request-filter.js'

// Typed for Bun's `expect` (from bun:test, or its globals), as @types/bun declares it.
declare module 'bun:test' {
  interface Matchers<T = unknown> extends ReceivedMatchers<void> {}
}

// Registered once, on import: `import 'petstore-orders-simulator/bun'` in a test, or in a preload file (bunfig.toml).
expect.extend({
  toHaveReceived(received: unknown, filter?: RequestFilter, options?: { times?: number }) {
    return toHaveReceived(this.isNot, received, filter, options)
  },
})

export type { RequestFilter }
