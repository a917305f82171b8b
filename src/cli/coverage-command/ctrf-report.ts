// `petstore-sim coverage --format ctrf`: the merged coverage as a Common Test Report Format document (https://ctrf.io),
// each documented outcome a test, so that a CI dashboard that reads CTRF shows which outcomes a suite met.
import { neverSeenMessage, REPORT_TOOL, type ReportInput, type Verdict, verdictOf } from './outcome-verdicts.js'

/** The CTRF version the document follows: the one schema the reference package (npm `ctrf`) publishes. */
const CTRF_SPEC_VERSION = '0.0.0'

interface CtrfTest {
  name: string
  status: Verdict
  duration: number
  suite: [string]
  message?: string
  extra: { count: number; tests: readonly string[] }
}

/** The report as an object, in CTRF's shape: `results.tool`, `results.summary`, `results.tests`. */
function ctrfReport(input: ReportInput) {
  const tests: CtrfTest[] = input.coverage.outcomes.map((outcome) => {
    const status = verdictOf(outcome, input.required)
    return {
      name: outcome.id,
      status,
      // An outcome has no run time of its own: it is a count, not a test that ran.
      duration: 0,
      suite: [outcome.operation],
      ...(status === 'passed' ? {} : { message: neverSeenMessage(outcome, status) }),
      extra: { count: outcome.count, tests: input.testNames.get(outcome.id) ?? [] },
    }
  })
  const counted = (status: Verdict) => tests.filter((test) => test.status === status).length
  return {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    timestamp: new Date(input.stop).toISOString(),
    generatedBy: `petstore-orders-simulator ${input.version}`,
    results: {
      tool: { name: REPORT_TOOL, version: input.version },
      summary: {
        tests: tests.length,
        passed: counted('passed'),
        failed: counted('failed'),
        skipped: counted('skipped'),
        pending: 0,
        other: 0,
        start: input.start,
        stop: input.stop,
        duration: input.stop - input.start,
      },
      tests,
      // The gate as a whole: a --min shortfall belongs to no one outcome, so it is said here.
      extra: {
        exercised: input.coverage.exercised,
        total: input.coverage.total,
        coverageFiles: input.files,
        shortfalls: input.shortfalls,
      },
    },
  }
}

/** The report as the file's text. */
export function ctrfText(input: ReportInput): string {
  return `${JSON.stringify(ctrfReport(input), null, 2)}\n`
}
