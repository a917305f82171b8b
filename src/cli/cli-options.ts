import { parseArgs } from 'node:util'
import type { DeprecationDates } from '../core/glossary.js'
import { DEFAULT_DEPRECATION } from '../core/operations/get-pet-by-id.js'
import { isBuiltinScenarioName, looksLikePath, resolveScenario } from '../core/scenario/load-scenario.js'
import type { CheckedScenario } from '../core/scenario/parse-scenario.js'
import { loadScenarioFile } from '../core/scenario/scenario-file.js'
import { checkDeprecationOrder } from '../core/simulator/options.js'
import { mapValidation, type ValidationError } from '../core/validation-error.js'
import { checkProxyOption } from '../platform/node/proxy-option.js'
import type { SimulatorServerOptions } from '../transports/standalone/start-server.js'
import { joinDashedValues, unknownFlagHint } from './argv.js'
import { unknownVariableWarnings } from './env-warnings.js'
import { FLAGS, type Flag } from './flags.js'
import { CliUsageError } from './usage-error.js'

/** The options the flags give: the server's, with a scenario and dates as text, whether to log requests and to read pets at start. */
type FlagOptions = Omit<SimulatorServerOptions, 'scenario' | 'deprecation'> & {
  scenario?: string
  deprecation?: Partial<Record<keyof DeprecationDates, string>>
  quiet?: boolean
  pets?: boolean
}

/**
 * A start; `readAtStart` when `--proxy --record` starts from the deployment's own orders (no scenario
 * named): the CLI reads them (and with `pets` its pet records) before the server starts.
 */
type StartCommand = { kind: 'start'; options: SimulatorServerOptions; quiet: boolean; readAtStart?: { pets: boolean } }

export type CliCommand = { kind: 'help' } | { kind: 'version' } | StartCommand

/**
 * Reads the command line and environment into what to do. Throws a
 * `CliUsageError` with a one-line message for anything it cannot use. A
 * start whose options are all usable hands `warn` one line for each
 * PETSTORE_SIM_* variable nothing reads (stderr by default).
 */
export function parseCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  warn: (line: string) => void = (line) => void process.stderr.write(`${line}\n`),
): CliCommand {
  let parsed: { values: Record<string, string | boolean | undefined> }
  try {
    parsed = parseArgs({
      args: joinDashedValues(argv),
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(FLAGS.map((flag) => [flag.name, { type: flag.boolean ? 'boolean' : 'string' } as const])),
    })
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)
    throw new CliUsageError(`${message.replace(/\.$/, '')}.${unknownFlagHint(argv)} Run petstore-sim --help for the options.`)
  }
  const { values } = parsed
  if (values['help'] === true) return { kind: 'help' }
  if (values['version'] === true) return { kind: 'version' }

  const { quiet = false, pets = false, ...options } = readOptions(createFlagReader(values, FLAGS, env), FLAGS)
  for (const line of unknownVariableWarnings(env)) warn(line)
  // A scenario named (flag or variable) is kept: nothing is read at start.
  const readAtStart = options.proxy?.record === true && options.scenario === undefined
  return { kind: 'start', options, quiet, ...(readAtStart ? { readAtStart: { pets } } : {}) }
}

function parseBoolean(text: string, variable: string): boolean {
  const normalized = text.trim().toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true
  if (['0', 'false', 'no', 'off', ''].includes(normalized)) return false
  throw new CliUsageError(`${variable} must be 1/true/yes or 0/false/no, got "${text}".`)
}

/**
 * Flag values by name, each falling back to its flag's environment variable; `label` says where a value
 * came from, for messages: `--port`, or `PETSTORE_SIM_PORT` when the variable set it. A name outside
 * `flags` reads as absent, variable included: a command reads only its own flags.
 */
export function createFlagReader(
  values: Record<string, string | string[] | boolean | undefined>,
  flags: readonly Flag[],
  env: Readonly<Record<string, string | undefined>>,
) {
  // The variable a flag falls back to, when it has one ('' for --help and --version).
  const variableOf = (name: string) => flags.find((flag) => flag.name === name)?.env ?? ''
  const fromEnv = (name: string) => (variableOf(name) === '' ? undefined : env[variableOf(name)])
  return {
    read(name: string): string | undefined {
      const value = values[name]
      return typeof value === 'string' ? value : fromEnv(name)
    },
    readBoolean(name: string): boolean | undefined {
      if (values[name] === true) return true
      const text = fromEnv(name)
      return text === undefined ? undefined : parseBoolean(text, variableOf(name))
    },
    label: (name: string) => (values[name] === undefined && variableOf(name) !== '' ? variableOf(name) : `--${name}`),
  }
}

type FlagReader = ReturnType<typeof createFlagReader>

/**
 * The options `flags` set, each read by its flag's reader into its option, then checked together:
 * a seed needs generated orders, the deprecation dates their order, the proxy's flags --proxy.
 * A core check's refusal names the flag its field comes from, or the variable that gave it.
 */
export function readOptions(reader: FlagReader, flags: readonly Flag[]): FlagOptions {
  const { read, readBoolean, label } = reader
  const refused = (error: ValidationError): never => {
    const flag = flags.find((each) => each.option === error.field)
    const named = flag !== undefined && error.message.startsWith(error.field)
    throw new CliUsageError(named ? `${label(flag.name)}${error.message.slice(error.field.length)}` : error.message)
  }
  const options: Record<string, unknown> = {}
  for (const { name, boolean, option, read: reads = (same: never) => same } of flags) {
    const given = boolean ? readBoolean(name) : read(name)
    const value = option === undefined || given === undefined ? undefined : mapValidation(() => reads(given as never, label(name)), refused)
    if (value === undefined || option === undefined) continue
    const [head = '', key] = option.split('.')
    options[head] = key === undefined ? value : { ...(options[head] as object), [key]: value }
  }
  // Read into each option's own type by its flag's reader (flags.ts).
  const checked = options as FlagOptions
  const { scenario, scenariosDir, seed, proxy, pets } = checked
  // The start read (--proxy --record, no scenario named) replaces the scenario: what would shape it has nothing to shape.
  const readsAtStart = proxy?.target !== undefined && proxy.record === true && scenario === undefined
  if (pets === true && !readsAtStart)
    throw new CliUsageError(
      proxy?.target === undefined || proxy.record !== true
        ? `${label('pets')} works only with --proxy <url> --record: it reads the deployment's pet records at start.`
        : `${label('pets')} has no effect with ${label('scenario')}: the deployment's orders and pets are read at start only when no scenario is named. Drop one.`,
    )
  if (seed !== undefined && readsAtStart)
    throw new CliUsageError(
      `${label('seed')} ${seed} has no effect: --proxy --record starts from the deployment's orders, which no seed generates. ` +
        'Drop the seed, or name a scenario with --scenario.',
    )
  // A folder's scenario is checked when the simulator is made.
  const inFolder = scenariosDir !== undefined && !isBuiltinScenarioName(scenario ?? 'default') && !looksLikePath(scenario ?? '')
  let inForce: CheckedScenario | undefined
  const loaded = () => (inForce ??= resolveScenario(scenario ?? 'default', loadScenarioFile).scenario)
  // A seed with nothing to seed would be ignored: the user expects generated orders they will not get.
  if (seed !== undefined && !inFolder && loaded().generate === undefined)
    throw new CliUsageError(
      `${label('seed')} ${seed} has no effect: scenario "${loaded().name}" lists its orders instead of generating them ` +
        '(it has no "generate" section). Drop the seed, or use a scenario that generates orders, such as default.',
    )
  const { deprecation } = checked
  if (deprecation !== undefined) mapValidation(() => checkDates(deprecation, label, inFolder ? undefined : loaded), refused)
  if (proxy !== undefined && proxy.target === undefined) {
    const lone =
      proxy.key !== undefined ? 'proxy-key' : proxy.timeoutSeconds !== undefined ? 'proxy-timeout' : proxy.record ? 'record' : undefined
    if (lone !== undefined) throw new CliUsageError(`${label(lone)} works only with --proxy <url> (or PETSTORE_SIM_PROXY).`)
    delete checked.proxy
  }
  // The core's own messages; the key is never in them, nor the target's user info or query.
  const { proxy: forward } = checked
  if (forward !== undefined) mapValidation(() => checkProxyOption(forward), refused)
  return checked
}

/**
 * The deprecation dates against each other; with one given, against the other date in force: the
 * scenario's own, else the default. A folder's scenario (no `loaded`) is read only when the server starts.
 */
function checkDates(given: Partial<Record<keyof DeprecationDates, string>>, label: FlagReader['label'], loaded?: () => CheckedScenario) {
  if (loaded === undefined && (given.deprecatedAt === undefined || given.sunsetAt === undefined)) return
  const flag = { deprecatedAt: 'deprecated-at', sunsetAt: 'sunset-at' } as const
  const names = { deprecatedAt: label(flag.deprecatedAt), sunsetAt: label(flag.sunsetAt) }
  const date = (field: keyof DeprecationDates) => {
    const own = given[field] ?? loaded?.().deprecation?.[field]
    if (given[field] === undefined)
      names[field] =
        own === undefined
          ? `the ${field === 'deprecatedAt' ? 'deprecation' : 'sunset'} date --${flag[field]} defaults to`
          : `scenario "${loaded?.().name}"'s deprecation.${field}`
    return new Date(own ?? DEFAULT_DEPRECATION[field])
  }
  checkDeprecationOrder({ deprecatedAt: date('deprecatedAt'), sunsetAt: date('sunsetAt') }, names)
}
