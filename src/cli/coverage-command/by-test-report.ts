// `petstore-sim coverage --by-test`: each outcome with the tests that saw it, so that a change to how the app handles
// one outcome names the tests to run again.
import { exercisedShare as share } from '../../core/outcome-coverage/share.js'
import { escapeControls } from '../terminal-text.js'
import type { ReportedCoverage } from './outcome-verdicts.js'

/**
 * One line per outcome (its count, or "never"), then one indented line per test that saw it; "(no test names)" when
 * it was seen but only in files that name no tests (written by an older version, or saved with curl).
 */
export function byTestListing(coverage: ReportedCoverage, names: ReadonlyMap<string, readonly string[]>, files: number): string {
  const width = Math.max(...coverage.outcomes.map((outcome) => outcome.id.length), 'Outcome'.length) + 2
  const lines = [`${'Outcome'.padEnd(width)}${'Count'.padStart(7)}  Tests that saw it`]
  for (const outcome of coverage.outcomes) {
    lines.push(`${outcome.id.padEnd(width)}${(outcome.count > 0 ? String(outcome.count) : 'never').padStart(7)}`)
    if (outcome.count === 0) continue
    const seenBy = names.get(outcome.id) ?? []
    if (seenBy.length === 0) lines.push('  (no test names)')
    // A name is a test's title, from a file on disk: shown, never obeyed by the terminal.
    for (const name of seenBy) lines.push(`  ${escapeControls(name)}`)
  }
  const named = coverage.tests?.length ?? 0
  const leftOut = coverage.testsLeftOut ?? 0
  lines.push(
    '',
    `${share(coverage)} of the service's documented outcomes exercised, from ${files} coverage file${files === 1 ? '' : 's'}` +
      ` naming ${named} test${named === 1 ? '' : 's'}.`,
  )
  // A file names at most 10,000 tests; the rest are counted there, and said here, so the listing is not taken as whole.
  if (leftOut > 0)
    lines.push(`${leftOut} more test${leftOut === 1 ? ' was' : 's were'} counted but not named: a coverage file names at most 10,000.`)
  return lines.join('\n')
}
