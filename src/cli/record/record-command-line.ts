import { isBearerToken } from '../../core/bearer-auth.js'
import { SCENARIO_NAME } from '../../core/scenario/scenario-limits.js'
import { readFlags } from '../argv.js'
import { createFlagReader } from '../cli-options.js'
import { commandHelp, type Flag, SERVICE_FLAGS } from '../flags.js'
import { parseServicePace, parseTarget, usageOf } from '../service-flags.js'
import { MAX_RECORD_PATHS, recordPathProblem } from './record-paths.js'
import { MAX_RECORDED_PET_BYTES, MAX_RECORDED_PETS, MAX_RECORDED_PETS_BYTES, type RecordOptions } from './record-scenario.js'

/** What `record` reads (all but its User-Agent and what it is told), and where it writes it: undefined is standard output. */
type RecordCommand = Omit<RecordOptions, 'userAgent' | 'key' | 'onAnswer' | 'onSkipped'> & {
  kind: 'record'
  key: string
  out: string | undefined
}

const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`

/** Every flag of `petstore-sim record`, in the order its help lists them. */
export const RECORD_FLAGS: readonly Flag[] = [
  {
    name: 'target',
    env: '',
    value: '<url>',
    help: 'Base URL of the running service, such as https://staging.example.test/v1 (http or https). Required.',
  },
  { name: 'name', env: '', value: '<name>', help: 'Name of the scenario: lower-case letters, digits and dashes. Required.' },
  { name: 'out', env: '', value: '<file>', help: 'Write the scenario file here. Default: standard output.' },
  {
    name: 'key',
    env: 'PETSTORE_SIM_RECORD_KEY',
    value: '<token>',
    help: 'Bearer key the service accepts. Required. Never printed or written; the variable keeps it out of the process list.',
  },
  {
    name: 'pets',
    env: '',
    boolean: true,
    help:
      `Also record GET /pets/{petId} for each petId the orders name, into the scenario's pets: the first ${MAX_RECORDED_PETS}, ` +
      `each a 200 JSON record of at most ${mib(MAX_RECORDED_PET_BYTES)}, ${mib(MAX_RECORDED_PETS_BYTES)} in all. Default off.`,
  },
  {
    name: 'path',
    env: '',
    value: '<path>',
    help:
      'Also read GET <target><path> (a query allowed, such as /search?q=cat) and keep the answer as a route, as --proxy --record ' +
      `keeps one (no 5xx, JSON or text bodies of at most 1 MiB, never the key). Repeatable, at most ${MAX_RECORD_PATHS}; ` +
      'not a spec operation. Default none.',
  },
  ...SERVICE_FLAGS,
  { name: 'help', env: '', boolean: true, help: 'Show this help and exit.' },
]

const usage = usageOf('record')

/** Reads `petstore-sim record ...` (the arguments after `record`). Throws a `CliUsageError` of one line (exit 2). */
export function parseRecordCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): RecordCommand | { kind: 'help' } {
  const { values: all } = readFlags(argv, RECORD_FLAGS, usage, { repeatable: true })
  if (all['help'] === true) return { kind: 'help' }
  // Every flag but --path takes one value: the last given, as a flag given twice always has.
  const values = Object.fromEntries(Object.entries(all).map(([name, value]) => [name, Array.isArray(value) ? value.at(-1) : value]))
  const reader = createFlagReader(values, RECORD_FLAGS, env)
  const target = parseTarget(reader.read('target'), 'record')
  const name = reader.read('name')
  if (name === undefined || name === '') throw usage('record needs --name <name>, the name of the scenario it writes.')
  if (!SCENARIO_NAME.test(name))
    throw usage(`--name must be 1 to 64 lower-case letters, digits and dashes, starting with a letter or digit, got "${name}".`)
  const out = reader.read('out')
  if (out === '') throw usage('--out needs a file name.')
  const key = reader.read('key')
  if (key === undefined || key === '')
    throw usage('record needs --key <token> (or PETSTORE_SIM_RECORD_KEY), a bearer key the service accepts.')
  if (!isBearerToken(key))
    throw usage(`${reader.label('key')} must be an RFC 6750 bearer token: letters, digits and -._~+/, then optional "=" (not shown here).`)
  return {
    kind: 'record',
    target,
    key,
    name,
    out,
    pets: reader.readBoolean('pets') ?? false,
    ...recordPaths(all['path'], new URL(target).pathname, key),
    ...parseServicePace(reader.read, 'record'),
  }
}

/** The `--path`s, each checked (`recordPathProblem`); none: no `paths`. */
function recordPaths(given: string | string[] | boolean | undefined, basePath: string, key: string): { paths?: string[] } {
  const paths = Array.isArray(given) ? given : typeof given === 'string' ? [given] : []
  if (paths.length > MAX_RECORD_PATHS) throw usage(`--path is given ${paths.length} times; record reads at most ${MAX_RECORD_PATHS} paths.`)
  for (const path of paths) {
    const problem = recordPathProblem(path, basePath)
    // Echoed only when printable, short and without the key: the problem names any other character by its code point.
    const shown = /^[\x21-\x7e]{1,200}$/.test(path) && !path.includes(key) ? `"${path}" ` : ''
    if (problem !== undefined) throw usage(`--path ${shown}${problem}.`)
  }
  return paths.length === 0 ? {} : { paths }
}

/** `petstore-sim record --help`. */
export function recordHelpText(): string {
  return commandHelp(
    'petstore-sim record --target <url> --name <name> --key <token> [--out <file>] [options]',
    [
      "Reads a running service's GET /store/orders (with --pets its pet records, with --path other paths as routes) into a",
      'scenario file that loads as written, and says on stderr which documented outcomes the answers showed. The list has',
      'no status field: a status the records carry is used, else complete: true is shipped and the rest',
      'pending; the description says which. The key is never written: the file accepts the usual test key',
      '(petstore-test-key). A path whose answer is not kept is named on stderr with why; that is no failure.',
      'Exit code: 0 written, 2 bad usage or the list could not be read (nothing is written).',
    ],
    RECORD_FLAGS,
    'Example: PETSTORE_SIM_RECORD_KEY=... petstore-sim record --target https://staging.example.test/v1 --name staging --out staging.json',
  )
}
