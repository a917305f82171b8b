import { SCENARIO_NAME } from '../../core/scenario/scenario-limits.js'
import { readFlags } from '../argv.js'
import { commandHelp, type Flag } from '../flags.js'
import { type CommandOutput, writeScenarioOutput } from '../record/write-scenario-output.js'
import { escapeControls } from '../terminal-text.js'
import { CliUsageError } from '../usage-error.js'
import { HarImportError } from './har-entries.js'
import { type HarImport, importHarReport } from './import-har.js'
import { readHarFile } from './read-har-file.js'

/** Every flag of `petstore-sim import-har`, in the order its help lists them. */
export const IMPORT_HAR_FLAGS: readonly Flag[] = [
  { name: 'name', env: '', value: '<name>', help: 'Name of the scenario: lower-case letters, digits and dashes. Required.' },
  { name: 'base', env: '', value: '<path>', help: "Path of the API base in the HAR's URLs. Default /v1." },
  { name: 'out', env: '', value: '<file>', help: 'Write the scenario file here. Default: standard output.' },
  {
    name: 'strict',
    env: '',
    boolean: true,
    help: 'All or nothing: an answer of the service that cannot be a route, the orders or a pet record is an error (exit 2), not skipped.',
  },
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
  return { file, name, base, out, strict: values['strict'] === true }
}

/** `petstore-sim import-har --help`. */
export function importHarHelpText(): string {
  return commandHelp(
    'petstore-sim import-har <file.har> --name <name> [--base /v1] [--out <file>] [--strict]',
    [
      "Turns a browser's HTTP archive (DevTools, Playwright's recordHar) into a scenario file that loads as",
      'written. The last 200 answer of GET <base>/store/orders gives the orders (a status the records carry,',
      "else complete: true is shipped and the rest pending), each pet's last 200 of GET <base>/pets/{petId}",
      'its pet record, and every other answer under the base a route, by the rule --proxy --record keeps:',
      'below 500, an empty, JSON or text body (text is answered as it came, under its Content-Type) of at most',
      "1 MiB, the first per method, path and query; the route matches the answer's query parameters,",
      'credential-named ones left out. Every other entry is skipped and counted on stderr in one line, such as',
      '"skipped 3: 1 image, 1 server error, 1 spec operation": images and other binary bodies, 5xx, the spec',
      'operations the simulator answers itself (named by outcome in the lines after it), repeats, CORS',
      'preflights, 304s, unanswered entries and entries outside the base. --strict refuses the first answer',
      'the scenario cannot hold instead (not preflights, 304s, unanswered entries, repeats, spec operations or',
      'entries outside the base). Credentials are never copied: headers named like token, key, secret, auth or',
      'session, cookies, and fields such as access_token, api_key or password (JSON, form, query) read',
      '[redacted], and so does each of their values wherever an answer echoes it. The file must be a regular',
      'file of at most 64 MiB. Exit code: 0 written, 2 bad usage or input, or nothing under the base to import',
      '(nothing is written).',
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
  let imported: HarImport
  try {
    command = parseImportHarCommandLine(argv)
    if (command === 'help') {
      out.stdout(`${importHarHelpText()}\n`)
      return 0
    }
    const { name, base, strict } = command
    imported = importHarReport(readHarFile(command.file), { name, base, strict })
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // Bad usage and bad input say it all; anything else is still one line, never a stack.
    return fail(
      error instanceof HarImportError || error instanceof CliUsageError ? message : `Failed to import the HAR: ${message.split('\n')[0]}`,
    )
  }
  const refused = writeScenarioOutput(command.out, imported.scenario, out)
  if (refused !== undefined) return fail(refused)
  // Said once the file is written, so that a refused write stays one line.
  for (const line of [...(imported.skipped === undefined ? [] : [imported.skipped]), ...imported.traffic])
    out.stderr(`${escapeControls(line)}\n`)
  return 0
}
