// What `petstore-sim coverage` prints: every outcome with its count, the share exercised, what controls provoked.
import type { Coverage } from '../../core/outcome-coverage/coverage-counter.js'
import { exercisedShare as share } from '../../core/outcome-coverage/share.js'
import { escapeControls } from '../terminal-text.js'

/**
 * The table: one line per outcome, its mark ("seen" or "never"), its count; under an outcome never seen,
 * indented, how to provoke it (its recipe's text), so that the developer need not work it out from the spec.
 */
export function coverageTable(coverage: Coverage, files: number): string {
  const width = Math.max(...coverage.outcomes.map((outcome) => outcome.id.length), 'Outcome'.length) + 2
  const line = (id: string, seen: string, count: string) => `${id.padEnd(width)}${seen.padEnd(7)}${count.padStart(7)}`
  const lines = [
    line('Outcome', 'Seen', 'Count'),
    ...coverage.outcomes.flatMap((outcome) =>
      outcome.count > 0
        ? [line(outcome.id, 'seen', String(outcome.count))]
        : [line(outcome.id, 'never', '0'), `  To provoke it: ${escapeControls(outcome.recipe.text)}`],
    ),
    '',
    `${share(coverage)} of the service's documented outcomes exercised, from ${files} coverage file${files === 1 ? '' : 's'}.`,
  ]
  if (coverage.provoked.length > 0) {
    const idWidth = Math.max(...coverage.provoked.map((entry) => entry.id.length)) + 2
    lines.push('', "Provoked with the simulator's controls (not counted above):")
    for (const entry of coverage.provoked)
      lines.push(`  ${entry.control.padEnd(12)}${escapeControls(entry.id).padEnd(idWidth)}${String(entry.count).padStart(7)}`)
  }
  return lines.join('\n')
}

/** A date as people read it: the day alone when it is midnight UTC, else the whole ISO 8601 time. */
const readable = (iso: string) => (iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso)

/** A warning per deprecated operation that was called, with its sunset date. */
export function deprecationWarnings(coverage: Coverage): string[] {
  return coverage.deprecated
    .filter((entry) => entry.calls > 0)
    .map(
      (entry) =>
        `Warning: ${entry.calls} call${entry.calls === 1 ? '' : 's'} of the deprecated ${escapeControls(`${entry.method} ${entry.path}`)} ` +
        `(${entry.operation}), which is sunset on ${escapeControls(readable(entry.sunset))}.`,
    )
}
