import { MAX_TESTS, testName } from './current-test.js'

/**
 * Which test saw which outcome: each counted answer is added to the tests
 * that were running as its request arrived. Bounded: at most `MAX_TESTS`
 * tests, each name as `testName` keeps it; past them a test is counted in
 * `leftOut`, not named.
 */
export function createTestAttribution<T>() {
  const tests = new Map<string, Set<T>>()
  // Tests run one after another: a name other than the last one left out is one more test left out.
  let leftOut = { count: 0, last: '' }
  /** The outcomes `name` saw so far, a new set for a new test, or undefined past `MAX_TESTS` (counted as left out). */
  function seenBy(name: string): Set<T> | undefined {
    // A runner's entry keeps names as testName makes them; a name given otherwise is made so once, here.
    const kept = tests.has(name) ? name : testName(name)
    let seen = tests.get(kept)
    if (seen === undefined) {
      if (tests.size >= MAX_TESTS) {
        if (kept !== leftOut.last) leftOut = { count: leftOut.count + 1, last: kept }
        return undefined
      }
      seen = new Set()
      tests.set(kept, seen)
    }
    return seen
  }
  return {
    /** Adds `outcome` to each of `names`, the tests running as its request arrived (usually one, often none). */
    add(outcome: T, names: readonly string[]): void {
      for (const name of names) seenBy(name)?.add(outcome)
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
