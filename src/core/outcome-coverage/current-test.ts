// Which test is running, as the test runner's entry (petstore-orders-simulator/vitest, the Jest preset,
// petstore-orders-simulator/node-test) tells it: coverage attributes each counted answer to it (docs/coverage.md).

/**
 * The process-wide slot the runner entries write and the counters read. It is
 * global on purpose: which test runs is a fact of the process, not of a module,
 * and two copies of this package (a linked one beside an installed one, an ES
 * module beside its CommonJS build) must agree on it. Our modules keep no state
 * of their own here: the rule against module-level mutable state is about theirs.
 */
const CURRENT_TEST = Symbol.for('petstore-orders-simulator.current-test')

/** The most tests a state names; past them, answers still count but their tests are not named (`testsLeftOut`). */
export const MAX_TESTS = 10_000
/** The longest test name kept, in characters, the cut marker included. */
export const MAX_TEST_NAME = 200
/** What ends a name cut to `MAX_TEST_NAME`. */
const CUT_MARKER = '…'

type Slot = Record<symbol, unknown>

/** The running test's full name, or undefined between tests and outside a runner that tells it. One property read. */
export function currentTestName(): string | undefined {
  const name = (globalThis as Slot)[CURRENT_TEST]
  return typeof name === 'string' ? name : undefined
}

/** Says which test runs from now on (its full name), or that none does (undefined). The name is kept as `testName` makes it. */
export function setCurrentTest(name: string | undefined): void {
  ;(globalThis as Slot)[CURRENT_TEST] = name === undefined ? undefined : testName(name)
}

/**
 * A test's name as coverage keeps it: control characters (a title's newline)
 * become spaces, and a name over `MAX_TEST_NAME` characters is cut, ending in `…`.
 */
export function testName(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces.
  const plain = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
  if (plain.length <= MAX_TEST_NAME) return plain
  let cut = plain.slice(0, MAX_TEST_NAME - CUT_MARKER.length)
  // Half of a surrogate pair is not a character.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1)
  return `${cut}${CUT_MARKER}`
}
