import { describeTraffic, summarizeTraffic, type TrafficAnswer } from '../../core/outcome-coverage/traffic-outcomes.js'
import { packageVersion } from '../../transports/node/package-root.js'
import { escapeControls } from '../terminal-text.js'
import { redactor } from '../verify/redact-key.js'
import { parseRecordCommandLine, recordHelpText } from './record-command-line.js'
import { RecordError, recordScenario } from './record-scenario.js'
import { type CommandOutput, writeScenarioOutput } from './write-scenario-output.js'

const EXIT = { written: 0, cannotRun: 2 } as const

const firstLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''

/** `petstore-sim record` (its --help says what it does): resolves with the exit code; the key is never printed. */
export async function recordMain(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  out: CommandOutput,
): Promise<number> {
  let command: ReturnType<typeof parseRecordCommandLine>
  try {
    command = parseRecordCommandLine(argv, env)
  } catch (error) {
    out.stderr(`${escapeControls(firstLine(error))}\n`)
    return EXIT.cannotRun
  }
  if (command.kind === 'help') {
    out.stdout(`${recordHelpText()}\n`)
    return EXIT.written
  }
  const redact = redactor(command.key)
  const fail = (line: string) => {
    out.stderr(`${escapeControls(redact(line))}\n`)
    return EXIT.cannotRun
  }
  const answers: TrafficAnswer[] = []
  let scenario: Awaited<ReturnType<typeof recordScenario>>
  try {
    scenario = await recordScenario({
      ...command,
      userAgent: `petstore-sim-record/${packageVersion()}`,
      onAnswer: (answer) => answers.push(answer),
      onSkipped: (line) => out.stderr(`${escapeControls(redact(line))}\n`),
    })
  } catch (error) {
    // A RecordError says it all; anything else is still one line, never a stack.
    return fail(error instanceof RecordError ? error.message : `Failed to record from ${command.target}: ${firstLine(error)}`)
  }
  const refused = writeScenarioOutput(command.out, scenario, out)
  if (refused !== undefined) return fail(refused)
  // On stderr: standard output may be the scenario itself.
  for (const line of describeTraffic(summarizeTraffic(answers))) out.stderr(`${escapeControls(redact(line))}\n`)
  return EXIT.written
}
