import { MAX_TESTS, testName } from './current-test.js'

/**
 * Which test saw which outcome: each counted answer is added to the test
 * running then, as `runningTest` names it (one call per answer). Bounded:
 * at most `MAX_TESTS` tests, each name as `testName` keeps it; past them a
 * test is counted in `leftOut`, not named.
 */
export function createTestAttribution<T>(runningTest: () => string | undefined) {
  const tests = new Map<string, Set<T>>()
  // Tests run one after another: a name other than the last one left out is one more test left out.
  let leftOut = { count: 0, last: '' }
  return {
    /** Adds `outcome` to the running test's, if a runner named one. */
    add(outcome: T): void {
      const name = runningTest()
      if (name === undefined || name === '') return
      let seen = tests.get(name)
      if (seen === undefined) {
        // A runner's entry keeps names as testName makes them; a name set otherwise is made so once, here.
        const kept = testName(name)
        seen = tests.get(kept)
        if (seen === undefined) {
          if (tests.size >= MAX_TESTS) {
            if (kept !== leftOut.last) leftOut = { count: leftOut.count + 1, last: kept }
            return
          }
          seen = new Set()
          tests.set(kept, seen)
        }
      }
      seen.add(outcome)
    },
    /** Each test in the order it was first answered, its outcomes in `order`'s; and how many were left out. */
    report<Id>(order: readonly T[], idOf: (outcome: T) => Id) {
      const named = [...tests].map(([name, seen]) => ({ name, outcomes: order.filter((outcome) => seen.has(outcome)).map(idOf) }))
      return { tests: named, testsLeftOut: leftOut.count }
    },
    clear(): void {
      tests.clear()
      leftOut = { count: 0, last: '' }
    },
  }
}
