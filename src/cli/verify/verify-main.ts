import { writeFileSync } from 'node:fs'
import { stringify } from 'lossless-json'
import { isScenarioError } from '../../core/scenario/scenario-error.js'
import { packageVersion } from '../../transports/node/package-root.js'
import { unknownVariableWarnings } from '../env-warnings.js'
import type { CommandOutput } from '../record/write-scenario-output.js'
import { escapeControls } from '../terminal-text.js'
import { CliUsageError } from '../usage-error.js'
import { verifyHelpText } from '../flags.js'
import { runVerify, TargetUnreachableError, type VerifyOutcome } from './run-verify.js'
import { parseVerifyCommandLine, type VerifyCommand } from './verify-command-line.js'
import { jsonReport, textReport } from './verify-report.js'
import { redactor } from './redact-key.js'

/** Exit codes: every check matches, something differs, or the run could not be made (bad usage, no target). */
const EXIT = { match: 0, differs: 1, cannotRun: 2 } as const

/** One line for stderr, never a stack. */
function describeFailure(error: unknown, command: VerifyCommand): string {
  if (error instanceof TargetUnreachableError) return `Failed to reach ${command.target}: ${error.message}.`
  if (isScenarioError(error) || error instanceof CliUsageError) return error.message
  const message = error instanceof Error ? error.message : String(error)
  return `Failed to verify ${command.target}: ${message.split('\n')[0]}`
}

function writeOptions(file: string, outcome: VerifyOutcome, command: VerifyCommand): void {
  const text = `${stringify(outcome.scenario, null, 2)}\n`
  // A key the scenario itself lists is no secret (it is in the scenario already); any other never reaches the file.
  const safe = outcome.scenario.apiKeys?.includes(command.key) ? text : redactor(command.key)(text)
  try {
    writeFileSync(file, safe)
  } catch (error) {
    throw new CliUsageError(`Failed to write ${file}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

/**
 * `petstore-sim verify`: probes the service, compares, prints the report,
 * and resolves with the exit code.
 */
export async function verifyMain(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  out: CommandOutput,
): Promise<number> {
  let command: ReturnType<typeof parseVerifyCommandLine>
  try {
    command = parseVerifyCommandLine(argv, env)
  } catch (error) {
    out.stderr(`${escapeControls(error instanceof Error ? error.message : String(error))}\n`)
    return EXIT.cannotRun
  }
  if (command.kind === 'help') {
    out.stdout(`${verifyHelpText()}\n`)
    return EXIT.match
  }
  for (const line of unknownVariableWarnings(env)) out.stderr(`${line}\n`)
  const redact = redactor(command.key)
  try {
    const outcome = await runVerify({ ...command, userAgent: `petstore-sim-verify/${packageVersion()}` })
    if (command.writeOptions !== undefined) writeOptions(command.writeOptions, outcome, command)
    const context = { target: command.target, scenario: command.simulator.scenario ?? 'default', wrote: command.writeOptions }
    out.stdout(`${redact(command.json ? jsonReport(outcome, context) : textReport(outcome, context))}\n`)
    return outcome.results.some((result) => result.outcome === 'differs') ? EXIT.differs : EXIT.match
  } catch (error) {
    out.stderr(`${escapeControls(redact(describeFailure(error, command)))}\n`)
    return EXIT.cannotRun
  }
}
