import { afterEach, beforeEach, expect } from 'vitest'
import { testEnded, testStarted } from './core/outcome-coverage/current-test.js'
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

// Each test's name, for coverage to attribute the answers its requests get (docs/coverage.md): `fullName` is
// the file and the titles, `test/cancel.test.ts > cancel > a shipped order is 409`. Between tests (beforeAll,
// afterAll) no test runs, so nothing is attributed. A setup file's hooks run around every test of every file.
beforeEach(({ task }) => testStarted(task.fullName))
afterEach(({ task }) => testEnded(task.fullName))
