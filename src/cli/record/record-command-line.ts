import { isBearerToken } from '../../core/bearer-auth.js'
import { SCENARIO_NAME } from '../../core/scenario/scenario-limits.js'
import { readFlags } from '../argv.js'
import { createFlagReader } from '../cli-options.js'
import { commandHelp, type Flag, SERVICE_FLAGS } from '../flags.js'
import { parseServicePace, parseTarget, usageOf } from '../service-flags.js'
import { MAX_RECORDED_PET_BYTES, MAX_RECORDED_PETS, MAX_RECORDED_PETS_BYTES, type RecordOptions } from './record-scenario.js'

/** What `record` reads (all but its User-Agent), and where it writes it: undefined is standard output. */
type RecordCommand = Omit<RecordOptions, 'userAgent'> & { kind: 'record'; out: string | undefined }

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
  ...SERVICE_FLAGS,
  { name: 'help', env: '', boolean: true, help: 'Show this help and exit.' },
]

const usage = usageOf('record')

/** Reads `petstore-sim record ...` (the arguments after `record`). Throws a `CliUsageError` of one line (exit 2). */
export function parseRecordCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): RecordCommand | { kind: 'help' } {
  const { values } = readFlags(argv, RECORD_FLAGS, usage)
  if (values['help'] === true) return { kind: 'help' }
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
    ...parseServicePace(reader.read, 'record'),
  }
}

/** `petstore-sim record --help`. */
export function recordHelpText(): string {
  return commandHelp(
    'petstore-sim record --target <url> --name <name> --key <token> [--out <file>] [options]',
    [
      "Reads a running service's GET /store/orders into a scenario file that loads as written. The list has",
      'no status field: a status the records carry is used, else complete: true is shipped and the rest',
      'pending; the description says which. The key is never written: the file accepts the usual test key',
      '(petstore-test-key). Exit code: 0 written, 2 bad usage or the list could not be read (nothing is written).',
    ],
    RECORD_FLAGS,
    'Example: PETSTORE_SIM_RECORD_KEY=... petstore-sim record --target https://staging.example.test/v1 --name staging --out staging.json',
  )
}
