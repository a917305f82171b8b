// What the CI reports (CTRF, JUnit) and the --by-test listing say of each outcome: a test per outcome, its verdict.

/** An outcome as the reports read it; `recipe` (how to provoke it) is read only where there is one. */
export interface ReportedOutcome {
  id: string
  operation: string
  count: number
  recipe?: { text: string }
}

/** A merged coverage as the reports read it, with how many tests it names and how many more it only counted. */
export interface ReportedCoverage {
  outcomes: readonly ReportedOutcome[]
  exercised: number
  total: number
  tests?: readonly unknown[]
  testsLeftOut?: number
}

/** Everything a report is made from: the merged coverage, the gate and the run's times (ms since the epoch). */
export interface ReportInput {
  coverage: ReportedCoverage
  /** Per outcome id, the names of the tests that saw it (`testsByOutcome`); none for files that name no tests. */
  testNames: ReadonlyMap<string, readonly string[]>
  /** The outcomes `--require` names. */
  required: readonly string[]
  /** Why the run falls short of the gate, one line each (the lines stderr gets); empty when it is met. */
  shortfalls: readonly string[]
  /** How many coverage files were merged. */
  files: number
  start: number
  stop: number
  /** This package's version, the reporting tool's. */
  version: string
}

/** The reporting tool's name, as CTRF's `results.tool.name` and JUnit's `classname` carry it. */
export const REPORT_TOOL = 'petstore-sim coverage'

/** `passed` when seen, `failed` when required and never seen, `skipped` otherwise (issue 59). */
export type Verdict = 'passed' | 'failed' | 'skipped'

export function verdictOf(outcome: ReportedOutcome, required: readonly string[]): Verdict {
  if (outcome.count > 0) return 'passed'
  return required.includes(outcome.id) ? 'failed' : 'skipped'
}

/** One line on an outcome never seen: why it fails or is skipped, and how to provoke it where the merge says. */
export function neverSeenMessage(outcome: ReportedOutcome, verdict: Verdict): string {
  const why = verdict === 'failed' ? `Required outcome ${outcome.id} was never seen.` : `${outcome.id} was never seen.`
  return outcome.recipe === undefined ? why : `${why} To provoke it: ${outcome.recipe.text}`
}
