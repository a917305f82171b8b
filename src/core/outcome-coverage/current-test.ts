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

const NONE: readonly string[] = Object.freeze([])

/**
 * The tests running now, by full name: one, several (concurrent tests, a subtest inside its test), or
 * none between tests and outside a runner that tells. One property read; the list is replaced, never
 * changed, so a request may keep the one it arrived with.
 */
export function runningTests(): readonly string[] {
  const names = (globalThis as Slot)[CURRENT_TEST]
  return Array.isArray(names) ? names : NONE
}

/** Says a test started (its full name, kept as `testName` makes it): answers from now on count for it too. */
export function testStarted(name: string): void {
  ;(globalThis as Slot)[CURRENT_TEST] = [...runningTests(), testName(name)]
}

/** Says a test ended: the others still running keep their names (a concurrent test, the test around a subtest). */
export function testEnded(name: string): void {
  const names = runningTests()
  const at = names.lastIndexOf(testName(name))
  if (at !== -1) (globalThis as Slot)[CURRENT_TEST] = [...names.slice(0, at), ...names.slice(at + 1)]
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
