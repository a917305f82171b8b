import { statSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { isBearerToken } from '../core/bearer-auth.js'
import { MAX_LATENCY_MS } from '../core/controls/latency.js'
import { parseLifecycle } from '../core/lifecycle/lifecycle-rule.js'
import { mapValidation, ValidationError } from '../core/validation-error.js'
import { systemErrorCode } from '../core/system-error-code.js'
import { isBuiltinScenarioName, looksLikePath, resolveScenario } from '../core/scenario/load-scenario.js'
import { loadScenarioFile } from '../core/scenario/scenario-file.js'
import { checkOptions, checkReachablePath } from '../core/simulator/options.js'
import { checkProxyOption, type ProxyOption } from '../core/proxy/proxy-option.js'
import type { SimulatorOptions } from '../core/simulator/types.js'
import { hostOf } from '../transports/node/host-check.js'
import type { SimulatorServerOptions } from '../transports/standalone/start-server.js'
import { joinDashedValues, unknownFlagHint } from './argv.js'
import { readDeprecation } from './deprecation-flags.js'
import { unknownVariableWarnings } from './env-warnings.js'
import { FLAGS, type Flag } from './flags.js'
import { shownUrl } from './service-flags.js'
import { CliUsageError, type FlagReader, usageError } from './usage-error.js'

export type CliCommand = { kind: 'help' } | { kind: 'version' } | { kind: 'start'; options: SimulatorServerOptions; quiet: boolean }

export { CliUsageError }

function list(text: string): string[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

function parseWholeNumber(text: string, label: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^[0-9]+$/.test(text) || Number(text) > max) {
    throw new CliUsageError(`${label} must be a whole number from 0 to ${max}, got "${text}".`)
  }
  return Number(text)
}

/** A size in MiB, from 1 (a session's own bound is about 0.6 MiB) to 64 GiB, in bytes. */
function mebibytes(text: string, label: string): number {
  const value = parseWholeNumber(text, label, 65_536)
  if (value === 0) throw new CliUsageError(`${label} must be at least 1 (MiB), got "${text}".`)
  return value * 1024 * 1024
}

/** A folder that exists, as the scenarios folder must when the server starts. */
function checkFolder(path: string, label: string): string {
  let stats: ReturnType<typeof statSync>
  try {
    stats = statSync(path)
  } catch (error) {
    const why = systemErrorCode(error) === 'ENOENT' ? 'does not exist' : `cannot be read (${systemErrorCode(error) ?? String(error)})`
    throw new CliUsageError(`${label} ${path} ${why}. Give a folder of scenario files (it may be empty), or leave ${label} out.`)
  }
  if (!stats?.isDirectory()) throw new CliUsageError(`${label} ${path} is a file, not a folder. Give the folder that holds scenario files.`)
  return path
}

/** Whether the core's option checks take `value` as the option `key`: the CLI says how a value is refused, never which. */
function coreTakes(key: keyof SimulatorOptions, value: string): boolean {
  try {
    checkOptions({ [key]: value } as SimulatorOptions)
    return true
  } catch (error) {
    if (error instanceof ValidationError) return false
    throw error
  }
}

/**
 * A flag's value as the option `key`, once the core's option checks take it;
 * one they refuse is the usage line `line` words for the command line (the
 * core's own message lists the option's in-process forms, objects included).
 */
function checkedByCore<K extends keyof SimulatorOptions>(key: K, value: string, line: () => string): NonNullable<SimulatorOptions[K]> {
  if (!coreTakes(key, value)) throw new CliUsageError(line())
  // The core took it: it is a value of the option.
  return value as NonNullable<SimulatorOptions[K]>
}

/** Why the core refused a --latency: a range it takes the other way round, else not milliseconds it takes. */
function latencyLine(latency: string, label: string): string {
  const bounds = latency.split('-')
  if (bounds.length === 2 && coreTakes('latency', [...bounds].reverse().join('-')))
    return `${label} takes the lower bound first, such as ${bounds.map(Number).reverse().join('-')}, got "${latency}".`
  return `${label} must be milliseconds such as 50 or 50-400 (at most ${MAX_LATENCY_MS}), got "${latency}".`
}

function parseBoolean(text: string, variable: string): boolean {
  const normalized = text.trim().toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true
  if (['0', 'false', 'no', 'off', ''].includes(normalized)) return false
  throw new CliUsageError(`${variable} must be 1/true/yes or 0/false/no, got "${text}".`)
}

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

  const reader = createFlagReader(values, FLAGS, env)
  const options: SimulatorServerOptions = {}
  readSimulatorFlags(reader, options)
  readServerFlags(reader, options)
  const quiet = reader.readBoolean('quiet') ?? false
  for (const line of unknownVariableWarnings(env)) warn(line)
  return { kind: 'start', options, quiet }
}

/**
 * Reads parsed flag values, falling back to each flag's environment variable.
 * A name outside `flags` reads as absent, variable included: a command reads only its own flags.
 */
export function createFlagReader(
  values: Record<string, string | boolean | undefined>,
  flags: readonly Flag[],
  env: Readonly<Record<string, string | undefined>>,
): FlagReader {
  // The variable a flag falls back to, when it has one ('' for --help and --version).
  const variableOf = (name: string) => flags.find((flag) => flag.name === name)?.env ?? ''
  const fromEnv = (name: string) => (variableOf(name) === '' ? undefined : env[variableOf(name)])
  return {
    read(name) {
      const value = values[name]
      return typeof value === 'string' ? value : fromEnv(name)
    },
    readBoolean(name) {
      if (values[name] === true) return true
      const text = fromEnv(name)
      return text === undefined ? undefined : parseBoolean(text, variableOf(name))
    },
    label: (name) => (values[name] === undefined && variableOf(name) !== '' ? variableOf(name) : `--${name}`),
  }
}

/** The flags that shape the simulator: scenario, options, misbehaviour, sessions, journal. */
export function readSimulatorFlags(reader: FlagReader, options: SimulatorServerOptions): void {
  const { read, readBoolean, label } = reader
  const scenario = read('scenario')
  if (scenario !== undefined) options.scenario = scenario
  const scenariosDir = read('scenarios-dir')
  // Empty turns it off, as an image's default can be turned off with -e PETSTORE_SIM_SCENARIOS_DIR=.
  if (scenariosDir !== undefined && scenariosDir !== '') options.scenariosDir = checkFolder(scenariosDir, label('scenarios-dir'))
  const seed = read('seed')
  // A folder's scenario is checked when the simulator is made.
  const inFolder = options.scenariosDir !== undefined && !isBuiltinScenarioName(scenario ?? 'default') && !looksLikePath(scenario ?? '')
  if (seed !== undefined) options.seed = parseWholeNumber(seed, label('seed'))
  if (seed !== undefined && !inFolder) {
    // A seed with nothing to seed would be ignored: the user expects generated orders they will not get.
    const { scenario: loaded } = resolveScenario(options.scenario ?? 'default', loadScenarioFile)
    if (loaded.generate === undefined)
      throw new CliUsageError(
        `${label('seed')} ${seed} has no effect: scenario "${loaded.name}" lists its orders instead of generating them ` +
          '(it has no "generate" section). Drop the seed, or use a scenario that generates orders, such as default.',
      )
  }
  const basePath = read('base-path')
  if (basePath !== undefined) options.basePath = mapValidation(() => checkReachablePath(basePath, label('base-path')), usageError)
  const exposeStatus = readBoolean('expose-status')
  if (exposeStatus !== undefined) options.exposeStatus = exposeStatus
  const afterCancel = read('after-cancel')
  if (afterCancel !== undefined)
    options.afterCancel = checkedByCore(
      'afterCancel',
      afterCancel,
      () => `${label('after-cancel')} must be keep or remove, got "${afterCancel}".`,
    )
  const deprecation = readDeprecation(reader, scenario, inFolder)
  if (deprecation !== undefined) options.deprecation = deprecation
  const latency = read('latency')
  if (latency !== undefined) options.latency = checkedByCore('latency', latency, () => latencyLine(latency, label('latency')))
  const rateLimit = read('rate-limit')
  if (rateLimit !== undefined)
    options.rateLimit = checkedByCore(
      'rateLimit',
      rateLimit,
      () => `${label('rate-limit')} must be <requests>/<window>, both above 0, such as 100/60s, got "${rateLimit}".`,
    )
  const shipAfter = read('ship-after')
  if (shipAfter !== undefined) {
    const [min = '', max] = shipAfter.split('-')
    const lifecycle = max === undefined ? { shipAfter } : { min, max }
    mapValidation(
      () => parseLifecycle(lifecycle),
      (error) => {
        const problem =
          error.field === 'lifecycle'
            ? `takes the shorter duration first, such as ${max}-${min}`
            : 'must be a duration from 0 to 24h such as 30s, 250ms or 10m, or a range such as 10s-60s'
        throw new CliUsageError(`${label('ship-after')} ${problem}, got "${shipAfter}".`)
      },
    )
    options.lifecycle = lifecycle
  }
  const maxSessions = read('max-sessions')
  const sessionIdle = read('session-idle')
  const sessionMemory = read('max-session-memory')
  if (maxSessions !== undefined || sessionIdle !== undefined || sessionMemory !== undefined) {
    options.sessions = {
      ...(maxSessions === undefined ? {} : { max: parseWholeNumber(maxSessions, label('max-sessions'), 100_000) }),
      ...(sessionIdle === undefined ? {} : { idleSeconds: Math.max(1, parseWholeNumber(sessionIdle, label('session-idle'))) }),
      ...(sessionMemory === undefined ? {} : { maxBytes: mebibytes(sessionMemory, label('max-session-memory')) }),
    }
  }
  const journalSize = read('journal-size')
  if (journalSize !== undefined) options.journalSize = parseWholeNumber(journalSize, label('journal-size'), 1_000_000)
  readProxyFlags(reader, options)
}

/** The flag each field of the core's proxy option comes from, for its messages. */
const PROXY_FLAGS: Readonly<Record<string, string>> = {
  'proxy.target': 'proxy',
  'proxy.key': 'proxy-key',
  'proxy.timeoutSeconds': 'proxy-timeout',
  'proxy.record': 'record',
}

/** --proxy and the flags that shape it, checked by the core's proxy option (its messages, with the flag's name). */
function readProxyFlags({ read, readBoolean, label }: FlagReader, options: SimulatorServerOptions): void {
  const target = read('proxy')
  const key = read('proxy-key')
  const timeout = read('proxy-timeout')
  const record = readBoolean('record')
  if (target === undefined || target === '') {
    const lone = key !== undefined ? 'proxy-key' : timeout !== undefined ? 'proxy-timeout' : record === true ? 'record' : undefined
    if (lone !== undefined) throw new CliUsageError(`${label(lone)} works only with --proxy <url> (or PETSTORE_SIM_PROXY).`)
    return
  }
  const seconds = timeout === undefined ? undefined : Number(timeout.trim() === '' ? Number.NaN : timeout)
  const proxy: ProxyOption = {
    target,
    ...(key === undefined ? {} : { key }),
    ...(seconds === undefined ? {} : { timeoutSeconds: seconds }),
    ...(record === undefined ? {} : { record }),
  }
  mapValidation(
    () => checkProxyOption(proxy),
    (error) => {
      const flag = PROXY_FLAGS[error.field] ?? 'proxy'
      // The key is never echoed, nor the target's user info or query; the other values are the user's own.
      throw new CliUsageError(
        error.message
          .replace(/^proxy\.\w+/, label(flag))
          .replace(
            /, got .*\.$/s,
            timeout !== undefined && flag === 'proxy-timeout'
              ? `, got "${timeout}".`
              : flag === 'proxy'
                ? `, got "${shownUrl(target)}".`
                : '.',
          ),
      )
    },
  )
  options.proxy = proxy
}

/** The flags of the server around it: address, admin API, Host and Origin guards. */
function readServerFlags({ read, readBoolean, label }: FlagReader, options: SimulatorServerOptions): void {
  const port = read('port')
  if (port !== undefined) options.port = parseWholeNumber(port, label('port'), 65535)
  const host = read('host')
  if (host !== undefined) {
    if (host.trim() === '') throw new CliUsageError(`${label('host')} must not be empty.`)
    options.host = host
  }
  if (readBoolean('no-admin') === true) options.admin = false
  const adminToken = read('admin-token')
  if (adminToken !== undefined) {
    if (!isBearerToken(adminToken))
      throw new CliUsageError(
        `${label('admin-token')} must be one word of letters, digits and -._~+/ characters (it is sent as a bearer token).`,
      )
    options.adminToken = adminToken
  }
  const allowedHosts = read('allowed-hosts')
  if (allowedHosts !== undefined) {
    const names = list(allowedHosts)
    if (names.length === 0)
      throw new CliUsageError(`${label('allowed-hosts')} must name hosts, such as qa.example.test,.corp.test, or be all.`)
    const bad = names.find((name) => name !== 'all' && hostOf(name.replace(/^\./, '')) === null)
    if (bad !== undefined) throw new CliUsageError(`${label('allowed-hosts')} takes host names or addresses, got "${bad}".`)
    options.allowedHosts = names.includes('all') ? 'all' : names
  }
  const adminOrigins = read('admin-origins')
  if (adminOrigins !== undefined) {
    const origins = list(adminOrigins)
    const bad = origins.find((origin) => !/^https?:\/\/[^/?#\s]+$/.test(origin))
    if (origins.length === 0 || bad !== undefined)
      throw new CliUsageError(
        `${label('admin-origins')} takes origins such as https://qa.example.test (scheme, host, port; no path), got "${bad ?? adminOrigins}".`,
      )
    options.adminOrigins = origins
  }
}
