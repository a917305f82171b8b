import type { Coverage } from '../../core/outcome-coverage/coverage-counter.js'
import { testName } from '../../core/outcome-coverage/current-test.js'

/**
 * A Playwright test's coverage: its session is this test's alone, so every
 * outcome it saw is this test's, named by `titlePath` (its file from the test
 * folder, its describe titles, its title) joined by ` > `.
 */
export function testCoverage(coverage: Coverage, titlePath: readonly string[]): Coverage {
  const { testsLeftOut: _, ...rest } = coverage
  const outcomes = coverage.outcomes.filter((outcome) => outcome.count > 0).map((outcome) => outcome.id)
  return { ...rest, tests: outcomes.length === 0 ? [] : [{ name: testName(titlePath.join(' > ')), outcomes }] }
}
