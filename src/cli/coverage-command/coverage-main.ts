import type { Coverage } from '../../core/outcome-coverage/coverage-counter.js'
import { SPEC_OUTCOMES } from '../../core/outcome-coverage/outcomes.js'
import { closestName, readFlags } from '../argv.js'
import { commandHelp, type Flag } from '../flags.js'
import type { CommandOutput } from '../record/write-scenario-output.js'
import { escapeControls } from '../terminal-text.js'
import { CliUsageError } from '../usage-error.js'
import { DEFAULT_COVERAGE_DIR } from '../../transports/node/write-coverage.js'
import { CoverageInputError, readCoverage } from './read-coverage.js'
import { exercisedShare as share } from '../../core/outcome-coverage/share.js'
import { coverageTable, deprecationWarnings } from './coverage-table.js'

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
    name: 'json',
    env: '',
    boolean: true,
    help: 'Print the merged coverage as JSON (the shape sim.coverage() gives) instead of the table.',
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

/** Reads `petstore-sim coverage [dir ...] ...` (the arguments after `coverage`). Throws a `CliUsageError` of one line (exit 2). */
function parseCoverageCommandLine(argv: readonly string[]) {
  const { values, positionals } = readFlags(argv, COVERAGE_FLAGS, usage, { positionals: true, repeatable: true })
  if (values['help'] === true) return 'help'
  const required = ((values['require'] as string[] | undefined) ?? [])
    .flatMap((list) => list.split(','))
    .map((id) => id.trim())
    .filter((id) => id !== '')
    .map(requiredOutcome)
  const mins = (values['min'] as string[] | undefined) ?? []
  if (mins.length > 1) throw usage('--min is given more than once.')
  const [minText] = mins
  const min = minText === undefined ? undefined : Number(minText.trim())
  if (min !== undefined && (minText?.trim() === '' || !Number.isFinite(min) || min < 0 || min > 100))
    throw usage(`--min is a percentage from 0 to 100, got ${JSON.stringify(minText)}.`)
  const dirs = positionals.length === 0 ? [DEFAULT_COVERAGE_DIR] : positionals
  return { dirs, required, min, json: values['json'] === true }
}

/** `petstore-sim coverage --help`. */
function coverageHelpText(): string {
  return commandHelp(
    'petstore-sim coverage [dir ...] [--require <id,...>] [--min <percent>] [--json]',
    [
      'Merges the coverage files a test run wrote (writeCoverage, the Playwright fixture) and prints which of the',
      "service's documented outcomes its tests met: each outcome with its count, then the share exercised.",
      `Reads every *.json file of each folder; default ./${DEFAULT_COVERAGE_DIR}. What faults, latency, Prefer and`,
      'the rate limit provoked is listed apart. Calls of a deprecated operation are named in a warning.',
      'Exit code: 0 met, 1 a required outcome never seen or the share under --min, 2 bad usage or input',
      '(no such folder, a folder without coverage files, an unknown outcome id, a file that is not a coverage file).',
    ],
    COVERAGE_FLAGS,
    `Outcomes: ${OUTCOME_IDS.join(', ')}.`,
    '',
    'Example: petstore-sim coverage --require cancelOrder.409.order_already_shipped,listOrders.200.empty --min 80',
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

/** `petstore-sim coverage`: returns the exit code; bad usage or input is one line on stderr, exit 2. */
export function coverageMain(argv: readonly string[], out: CommandOutput): number {
  let command: CoverageCommand
  let coverage: Coverage
  let files: number
  try {
    const parsed = parseCoverageCommandLine(argv)
    if (parsed === 'help') {
      out.stdout(`${coverageHelpText()}\n`)
      return 0
    }
    command = parsed
    ;({ coverage, files } = readCoverage(command.dirs))
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const known = error instanceof CoverageInputError || error instanceof CliUsageError
    out.stderr(`${escapeControls(known ? message : `Failed to read the coverage: ${message.split('\n')[0]}`)}\n`)
    return 2
  }
  out.stdout(command.json ? `${JSON.stringify(coverage, null, 2)}\n` : `${coverageTable(coverage, files)}\n`)
  for (const line of deprecationWarnings(coverage)) out.stderr(`${line}\n`)
  const failed = shortfalls(coverage, command)
  for (const line of failed) out.stderr(`${line}\n`)
  return failed.length === 0 ? 0 : 1
}
