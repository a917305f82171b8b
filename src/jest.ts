import { expect } from '@jest/globals'
import { type ReceivedMatchers, toHaveReceived } from './core/simulator/to-have-received.js'
import type { RequestFilter } from './core/state/request-filter.js'

// Typed for both ways a Jest suite gets `expect`: imported from @jest/globals (the `expect` package's
// Matchers) and the globals of @types/jest (the `jest` namespace). Each must repeat its own type parameters.
declare module 'expect' {
  interface Matchers<R extends void | Promise<void>, T = unknown> extends ReceivedMatchers<R> {}
}
declare global {
  namespace jest {
    // biome-ignore lint/complexity/noBannedTypes: @types/jest declares Matchers<R, T = {}>; a merged declaration must repeat it.
    interface Matchers<R, T = {}> extends ReceivedMatchers<R> {}
  }
}

// Registered once, on import: the Jest preset loads this file after the environment (setupFilesAfterEnv).
expect.extend({
  toHaveReceived(received: unknown, filter?: RequestFilter, options?: { times?: number }) {
    return toHaveReceived(this.isNot ?? false, received, filter, options)
  },
})

export type { RequestFilter }
