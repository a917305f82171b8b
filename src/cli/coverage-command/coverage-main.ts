import { realpathSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Coverage } from '../../core/outcome-coverage/coverage-counter.js'
import { SPEC_OUTCOMES } from '../../core/outcome-coverage/outcomes.js'
import { closestName, readFlags } from '../argv.js'
import { commandHelp, type Flag } from '../flags.js'
import type { CommandOutput } from '../record/write-scenario-output.js'
import { escapeControls } from '../terminal-text.js'
import { CliUsageError } from '../usage-error.js'
import { DEFAULT_COVERAGE_DIR } from '../../transports/node/write-coverage.js'
import { CoverageInputError, type MergedCoverage, readCoverage, testsByOutcome } from './read-coverage.js'
import { exercisedShare as share } from '../../core/outcome-coverage/share.js'
import { coverageTable, deprecationWarnings } from './coverage-table.js'
import { byTestListing } from './by-test-report.js'
import { ctrfText } from './ctrf-report.js'
import { junitText } from './junit-report.js'
import type { ReportInput } from './outcome-verdicts.js'
import { writeReportFile } from './report-file.js'
import { packageVersion } from '../../transports/node/package-root.js'

/** Every flag of `petstore-sim coverage`, in the order its help lists them. */
const COVERAGE_FLAGS: readonly Flag[] = [
  {
    name: 'require',
    env: '',
    value: '<id,...>',
    help: 'Outcomes that must have been seen, comma-separated (the flag may be repeated): exit 1 for any never seen.',
  },
  { name: 'min', env: '', value: '<percent>', help: 'The least share of outcomes exercised, 0 to 100: exit 1 under it.' },
  {
    name: 'format',
    env: '',
    value: '<table|json|ctrf|junit>',
    help:
      'What to report: table (the default), json (the merged coverage), ctrf (CTRF JSON) or junit (JUnit XML), each ' +
      'outcome a test: passed when seen, failed when --require names it and it was never seen, skipped otherwise.',
  },
  {
    name: 'out',
    env: '',
    value: '<file>',
    help:
      'Write the json, ctrf or junit report to this file (whole or not at all; its folder must exist) and print the ' +
      'table (or --by-test) as well. Without it the report goes to stdout.',
  },
  {
    name: 'by-test',
    env: '',
    boolean: true,
    help: 'Print each outcome with the tests that saw it ("(no test names)" for counts from files that name none).',
  },
  {
    name: 'json',
    env: '',
    boolean: true,
    help: 'Print the merged coverage as JSON (the shape sim.coverage() gives) instead of the table: --format json.',
  },
  { name: 'help', env: '', boolean: true, help: 'Show this help and exit.' },
]

type CoverageCommand = Exclude<ReturnType<typeof parseCoverageCommandLine>, 'help'>

const usage = (problem: string) => new CliUsageError(`${problem} Run petstore-sim coverage --help for the options.`)
const OUTCOME_IDS = SPEC_OUTCOMES.outcomes.map((outcome) => outcome.id)

/** An outcome `--require` names, checked: a misspelt id would otherwise never be seen and fail for the wrong reason. */
function requiredOutcome(id: string): string {
  if (OUTCOME_IDS.includes(id)) return id
  const near = closestName(id, OUTCOME_IDS)
  throw usage(
    `--require names ${JSON.stringify(id)}, which is no outcome of the service.${near === undefined ? '' : ` Did you mean ${near}?`}`,
  )
}

/** What `--format` names. */
const FORMATS = ['table', 'json', 'ctrf', 'junit'] as const
type Format = (typeof FORMATS)[number]

/** The one value of a flag given at most once. */
function single(values: Record<string, unknown>, name: string): string | undefined {
  const given = (values[name] as string[] | undefined) ?? []
  if (given.length > 1) throw usage(`--${name} is given more than once.`)
  return given[0]
}

/** `--format`, `--json` and `--out` read together: the format to make, and the file it goes to (else stdout). */
function reportOf(values: Record<string, unknown>): { format: Format; out: string | undefined } {
  const named = single(values, 'format')
  const json = values['json'] === true
  let format: Format = json ? 'json' : 'table'
  if (named !== undefined) {
    const found = FORMATS.find((each) => each === named.trim().toLowerCase())
    if (found === undefined) {
      const near = closestName(named.trim().toLowerCase(), FORMATS)
      throw usage(
        `--format is one of ${FORMATS.join(', ')}, got ${JSON.stringify(named.slice(0, 40))}.${near === undefined ? '' : ` Did you mean ${near}?`}`,
      )
    }
    if (json && found !== 'json') throw usage(`--json and --format ${found} ask for two reports; give one.`)
    format = found
  }
  const out = single(values, 'out')
  if (out !== undefined && out.trim() === '') throw usage('--out names no file.')
  if (out !== undefined && format === 'table')
    throw usage('--out writes a report file: give --format json, ctrf or junit with it (the table goes to stdout).')
  return { format, out }
}

/** Reads `petstore-sim coverage [dir ...] ...` (the arguments after `coverage`). Throws a `CliUsageError` of one line (exit 2). */
function parseCoverageCommandLine(argv: readonly string[]) {
  const { values, positionals } = readFlags(argv, COVERAGE_FLAGS, usage, { positionals: true, repeatable: true })
  if (values['help'] === true) return 'help'
  const required = ((values['require'] as string[] | undefined) ?? [])
    .flatMap((list) => list.split(','))
    .map((id) => id.trim())
    .filter((id) => id !== '')
    .map(requiredOutcome)
  const minText = single(values, 'min')
  const min = minText === undefined ? undefined : Number(minText.trim())
  if (min !== undefined && (minText?.trim() === '' || !Number.isFinite(min) || min < 0 || min > 100))
    throw usage(`--min is a percentage from 0 to 100, got ${JSON.stringify(minText)}.`)
  const dirs = positionals.length === 0 ? [DEFAULT_COVERAGE_DIR] : positionals
  return { dirs, required, min, ...reportOf(values), byTest: values['by-test'] === true }
}

/** `petstore-sim coverage --help`. */
function coverageHelpText(): string {
  return commandHelp(
    'petstore-sim coverage [dir ...] [--require <id,...>] [--min <percent>] [--format <format> [--out <file>]] [--by-test]',
    [
      'Merges the coverage files a test run wrote (writeCoverage, the Playwright fixture) and prints which of the',
      "service's documented outcomes its tests met: each outcome with its count, then the share exercised.",
      `Reads every *.json file of each folder; default ./${DEFAULT_COVERAGE_DIR}. What faults, latency, Prefer and`,
      'the rate limit provoked is listed apart. Calls of a deprecated operation are named in a warning.',
      'Exit code, with any format: 0 met, 1 a required outcome never seen or the share under --min, 2 bad usage or',
      'input (no such folder, a folder without coverage files, an unknown outcome id, a file that is not a coverage',
      'file, an --out file that cannot be written).',
    ],
    COVERAGE_FLAGS,
    `Outcomes: ${OUTCOME_IDS.join(', ')}.`,
    '',
    'Example: petstore-sim coverage --require cancelOrder.409.order_already_shipped,listOrders.200.empty --min 80',
    'CI:      petstore-sim coverage --require cancelOrder.204 --format junit --out reports/petstore-coverage.xml',
  )
}

/** Why the run falls short of what was asked, one line each; none when it meets it. */
function shortfalls(coverage: Coverage, command: CoverageCommand): string[] {
  const unseen = command.required.filter((id) => (coverage.outcomes.find((outcome) => outcome.id === id)?.count ?? 0) === 0)
  const lines = unseen.map((id) => `Required outcome ${id} was never seen.`)
  const percent = coverage.total === 0 ? 100 : (coverage.exercised / coverage.total) * 100
  if (command.min !== undefined && percent < command.min)
    lines.push(`${share(coverage)} of the outcomes were exercised, under --min ${command.min}%.`)
  return lines
}

/** An `--out` among the files it reads: the next run would take the report for a coverage file and refuse it. */
function outAmongCoverageFiles(out: string, dirs: readonly string[]): boolean {
  if (!out.endsWith('.json')) return false
  const real = (path: string) => {
    try {
      return realpathSync(path)
    } catch {
      return undefined
    }
  }
  const folder = real(dirname(resolve(out)))
  return folder !== undefined && dirs.some((dir) => real(dir) === folder)
}

/** What a person reads on stdout: the table, or each outcome with its tests. */
function listing(coverage: MergedCoverage, files: number, byTest: boolean): string {
  return `${byTest ? byTestListing(coverage, testsByOutcome(coverage), files) : coverageTable(coverage, files)}\n`
}

/** A report's text: the merged coverage as JSON, CTRF or JUnit XML. */
function reportText(format: Exclude<Format, 'table'>, coverage: Coverage, input: ReportInput): string {
  if (format === 'json') return `${JSON.stringify(coverage, null, 2)}\n`
  return format === 'ctrf' ? ctrfText(input) : junitText(input)
}

/**
 * `petstore-sim coverage`: returns the exit code; bad usage or input is one line on stderr, exit 2. `now` is the
 * clock a CI report's start and stop are read from.
 */
export function coverageMain(argv: readonly string[], out: CommandOutput, now: () => number = Date.now): number {
  const start = now()
  let command: CoverageCommand
  let coverage: MergedCoverage
  let files: number
  let version: string
  try {
    const parsed = parseCoverageCommandLine(argv)
    if (parsed === 'help') {
      out.stdout(`${coverageHelpText()}\n`)
      return 0
    }
    command = parsed
    ;({ coverage, files } = readCoverage(command.dirs))
    if (command.out !== undefined && outAmongCoverageFiles(command.out, command.dirs))
      throw usage(`--out ${command.out} is among the coverage files this command reads; write the report elsewhere.`)
    version = packageVersion()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const known = error instanceof CoverageInputError || error instanceof CliUsageError
    out.stderr(`${escapeControls(known ? message : `Failed to read the coverage: ${message.split('\n')[0]}`)}\n`)
    return 2
  }
  const failed = shortfalls(coverage, command)
  if (command.format === 'table') out.stdout(listing(coverage, files, command.byTest))
  else {
    const testNames = testsByOutcome(coverage)
    const input: ReportInput = { coverage, testNames, required: command.required, shortfalls: failed, files, start, stop: now(), version }
    const text = reportText(command.format, coverage, input)
    if (command.out === undefined) out.stdout(text)
    else {
      // The file first: when it cannot be written, the one line that says so is all the run prints.
      const problem = writeReportFile(command.out, text)
      if (problem !== undefined) {
        out.stderr(`${escapeControls(problem)}\n`)
        return 2
      }
      out.stdout(listing(coverage, files, command.byTest))
      out.stdout(`${escapeControls(`Wrote the ${command.format} report to ${command.out}.`)}\n`)
    }
  }
  for (const line of deprecationWarnings(coverage)) out.stderr(`${line}\n`)
  for (const line of failed) out.stderr(`${line}\n`)
  return failed.length === 0 ? 0 : 1
}
