import { relative, sep } from 'node:path'
import { afterEach, beforeEach, expect } from '@jest/globals'
import { testEnded, testStarted } from './core/outcome-coverage/current-test.js'
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

/**
 * A Jest test's full name as coverage keeps it: its file (from the working directory, with `/`), then Jest's own
 * full name, its describe titles and its title joined by spaces as Jest prints and `-t` matches them.
 */
function jestTestName(testPath: string | undefined, currentTestName: string | undefined): string | undefined {
  if (currentTestName === undefined) return undefined
  if (testPath === undefined) return currentTestName
  return `${relative(process.cwd(), testPath).split(sep).join('/')} > ${currentTestName}`
}

// Each test's name, for coverage to attribute the answers its requests get (docs/coverage.md). Between tests
// (beforeAll, afterAll) no test runs, so nothing is attributed. Hooks of a setupFilesAfterEnv file wrap every test.
/** The running test's name as Jest's expect state gives it, in its hooks too. */
const runningJestTest = () => {
  const { testPath, currentTestName } = expect.getState()
  return jestTestName(testPath, currentTestName)
}
beforeEach(() => {
  const name = runningJestTest()
  if (name !== undefined) testStarted(name)
})
afterEach(() => {
  const name = runningJestTest()
  if (name !== undefined) testEnded(name)
})

export type { RequestFilter }
