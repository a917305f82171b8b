import { SCENARIO_NAME } from '../../core/scenario/scenario-limits.js'
import { readFlags } from '../argv.js'
import { commandHelp, type Flag } from '../flags.js'
import { type CommandOutput, writeScenarioOutput } from '../record/write-scenario-output.js'
import { escapeControls } from '../terminal-text.js'
import { CliUsageError } from '../usage-error.js'
import type { Scenario } from '../../core/scenario/scenario.js'
import { HarImportError } from './har-entries.js'
import { importHar } from './import-har.js'
import { readHarFile } from './read-har-file.js'

/** Every flag of `petstore-sim import-har`, in the order its help lists them. */
export const IMPORT_HAR_FLAGS: readonly Flag[] = [
  { name: 'name', env: '', value: '<name>', help: 'Name of the scenario: lower-case letters, digits and dashes. Required.' },
  { name: 'base', env: '', value: '<path>', help: "Path of the API base in the HAR's URLs. Default /v1." },
  { name: 'out', env: '', value: '<file>', help: 'Write the scenario file here. Default: standard output.' },
  { name: 'help', env: '', boolean: true, help: 'Show this help and exit.' },
]

const usage = (problem: string) => new CliUsageError(`${problem} Run petstore-sim import-har --help for the options.`)

/** Reads `petstore-sim import-har <file.har> ...` (the arguments after `import-har`). Throws a `CliUsageError` of one line (exit 2). */
function parseImportHarCommandLine(argv: readonly string[]) {
  const { values, positionals } = readFlags(argv, IMPORT_HAR_FLAGS, usage, { positionals: true })
  if (values['help'] === true) return 'help'
  const [file] = positionals
  if (file === undefined || positionals.length !== 1) throw usage(`import-har takes one HAR file, got ${positionals.length}.`)
  const name = values['name']
  if (typeof name !== 'string' || name === '') throw usage('import-har needs --name <name>, the name of the scenario it writes.')
  if (!SCENARIO_NAME.test(name))
    throw usage(`--name must be 1 to 64 lower-case letters, digits and dashes, starting with a letter or digit, got "${name}".`)
  const base = typeof values['base'] === 'string' ? values['base'] : '/v1'
  if (!base.startsWith('/')) throw usage(`--base must be a path starting with "/", such as /v1, got "${base}".`)
  const out = typeof values['out'] === 'string' ? values['out'] : undefined
  if (out === '') throw usage('--out needs a file name.')
  return { file, name, base, out }
}

/** `petstore-sim import-har --help`. */
export function importHarHelpText(): string {
  return commandHelp(
    'petstore-sim import-har <file.har> --name <name> [--base /v1] [--out <file>]',
    [
      "Turns a browser's HTTP archive (DevTools, Playwright's recordHar) into a scenario file that loads as",
      'written. The last 200 answer of GET <base>/store/orders gives the orders (a status the records carry,',
      'else complete: true is shipped and the rest pending), each 200 of GET <base>/pets/{petId} a pet record,',
      'and every other entry under the base a route: the first per method and path, JSON bodies only; CORS',
      'preflights and 304s are left out. Credentials are never copied: headers named like token, key, secret,',
      'auth or session, cookies, and fields such as access_token, api_key or password (JSON, form, query)',
      'read [redacted], and so does each of their values wherever an answer echoes it. The file must be a',
      'regular file of at most 64 MiB. Exit code: 0 written, 2 bad usage or input (nothing is written).',
    ],
    IMPORT_HAR_FLAGS,
    'Example: petstore-sim import-har session.har --name checkout --out scenarios/checkout.json',
  )
}

/** `petstore-sim import-har`: returns the exit code; a problem is one line on stderr, exit 2, nothing written. */
export function importHarMain(argv: readonly string[], out: CommandOutput): number {
  const fail = (line: string) => {
    out.stderr(`${escapeControls(line)}\n`)
    return 2
  }
  let command: ReturnType<typeof parseImportHarCommandLine>
  let scenario: Scenario
  try {
    command = parseImportHarCommandLine(argv)
    if (command === 'help') {
      out.stdout(`${importHarHelpText()}\n`)
      return 0
    }
    scenario = importHar(readHarFile(command.file), { name: command.name, base: command.base })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // Bad usage and bad input say it all; anything else is still one line, never a stack.
    return fail(
      error instanceof HarImportError || error instanceof CliUsageError ? message : `Failed to import the HAR: ${message.split('\n')[0]}`,
    )
  }
  const refused = writeScenarioOutput(command.out, scenario, out)
  return refused === undefined ? 0 : fail(refused)
}
