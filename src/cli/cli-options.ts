import { parseArgs } from 'node:util'
import { isBearerToken } from '../core/bearer-auth.js'
import type { AfterCancel } from '../core/glossary.js'
import { DEFAULT_DEPRECATION } from '../core/operations/get-pet-by-id.js'
import { describeOperations } from '../core/operations/registry.js'
import { BUILTIN_SCENARIOS } from '../core/scenario/builtin-scenarios.js'
import { DEFAULT_JOURNAL_SIZE } from '../core/state/journal.js'
import { hostOf } from '../transports/node/host-check.js'
import { DEFAULT_HOST, DEFAULT_PORT, type SimulatorServerOptions } from '../transports/standalone/start-server.js'

interface Flag {
  name: string
  env: string
  value?: string
  help: string
  boolean?: true
}

/** Every flag, in the order --help lists them. Each can also come from its environment variable. */
export const FLAGS: readonly Flag[] = [
  { name: 'port', env: 'PETSTORE_SIM_PORT', value: '<n>', help: `Port to listen on; 0 picks a free one. Default ${DEFAULT_PORT}.` },
  { name: 'host', env: 'PETSTORE_SIM_HOST', value: '<address>', help: `Address to bind. Default ${DEFAULT_HOST} (this machine only).` },
  { name: 'scenario', env: 'PETSTORE_SIM_SCENARIO', value: '<name|path>', help: `A built-in scenario (${Object.keys(BUILTIN_SCENARIOS).join(', ')}) or a path to your own JSON file. Default default.` },
  { name: 'seed', env: 'PETSTORE_SIM_SEED', value: '<n>', help: "Seed for the scenario's order generator. Default: the scenario's own." },
  { name: 'base-path', env: 'PETSTORE_SIM_BASE_PATH', value: '<path>', help: 'Path the API is served under. Default /v1.' },
  { name: 'expose-status', env: 'PETSTORE_SIM_EXPOSE_STATUS', boolean: true, help: "Add each order's status to the list. Default: the scenario's setting, else off." },
  { name: 'after-cancel', env: 'PETSTORE_SIM_AFTER_CANCEL', value: 'keep|remove', help: "Keep a cancelled order in the list, or remove it. Default: the scenario's setting, else keep." },
  { name: 'deprecated-at', env: 'PETSTORE_SIM_DEPRECATED_AT', value: '<date>', help: `Date GET /pets/{petId} announces in its Deprecation header. Default ${DEFAULT_DEPRECATION.deprecatedAt}.` },
  { name: 'sunset-at', env: 'PETSTORE_SIM_SUNSET_AT', value: '<date>', help: `Date GET /pets/{petId} announces in its Sunset header. Default ${DEFAULT_DEPRECATION.sunsetAt}.` },
  { name: 'latency', env: 'PETSTORE_SIM_LATENCY', value: '<ms|min-max>', help: 'Delay every answer: 50, or a range such as 50-400. Default none.' },
  { name: 'rate-limit', env: 'PETSTORE_SIM_RATE_LIMIT', value: '<n/window>', help: 'Per API key, such as 100/60s: then 429 rate_limited and RateLimit headers. Default off.' },
  { name: 'max-sessions', env: 'PETSTORE_SIM_MAX_SESSIONS', value: '<n>', help: 'How many X-Sim-Session sessions live at once (the least recently used goes first). Default 100.' },
  { name: 'session-idle', env: 'PETSTORE_SIM_SESSION_IDLE', value: '<seconds>', help: 'Drop a session unused for this long. Default 1800.' },
  { name: 'journal-size', env: 'PETSTORE_SIM_JOURNAL_SIZE', value: '<n>', help: `How many recent requests GET /__sim/requests keeps. Default ${DEFAULT_JOURNAL_SIZE}.` },
  { name: 'no-admin', env: 'PETSTORE_SIM_NO_ADMIN', boolean: true, help: 'Turn the admin API under /__sim off (it answers 404).' },
  { name: 'admin-token', env: 'PETSTORE_SIM_ADMIN_TOKEN', value: '<secret>', help: 'Require "Authorization: Bearer <secret>" on every admin call (401 otherwise). Default: none on a loopback --host; a random one, printed at start, on any other.' },
  { name: 'allowed-hosts', env: 'PETSTORE_SIM_ALLOWED_HOSTS', value: '<a,b|all>', help: 'Host names answered besides loopback ones and the bound address (.example.test: a domain and its subdomains); all turns the Host check off. Others get 403.' },
  { name: 'admin-origins', env: 'PETSTORE_SIM_ADMIN_ORIGINS', value: '<origin,...>', help: 'Web page origins allowed to call the admin API besides loopback ones, such as https://qa.example.test. Others get 403.' },
  { name: 'quiet', env: 'PETSTORE_SIM_QUIET', boolean: true, help: 'Do not log one line per request.' },
  { name: 'help', env: '', boolean: true, help: 'Show this help and exit.' },
  { name: 'version', env: '', boolean: true, help: 'Show the version and exit.' },
]

export type CliCommand = { kind: 'help' } | { kind: 'version' } | { kind: 'start'; options: SimulatorServerOptions; quiet: boolean }

/** A command line that cannot be run; its message is one line for stderr. */
export class CliUsageError extends Error {
  override name = 'CliUsageError'
}

export function helpText(): string {
  const lines = FLAGS.map((flag) => {
    const left = `  --${flag.name}${flag.value === undefined ? '' : ` ${flag.value}`}`
    const env = flag.env === '' ? '' : ` [env ${flag.env}]`
    return `${left.padEnd(32)}${flag.help}${env}`
  })
  return [
    'Usage: petstore-sim [options]     (or: npm start -- [options])',
    '',
    'Serves the Petstore Orders Service simulator over HTTP: the API under the base path',
    `(${describeOperations('/v1')}) and`,
    'the admin API under /__sim. Flags win over environment variables.',
    '',
    'Options:',
    ...lines,
    '',
    'Boolean variables take 1/true/yes or 0/false/no.',
    'Example: petstore-sim --port 4011 --scenario shipped',
  ].join('\n')
}

function list(text: string): string[] {
  return text.split(',').map((item) => item.trim()).filter((item) => item !== '')
}

function parseWholeNumber(text: string, flag: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^[0-9]+$/.test(text) || Number(text) > max) {
    throw new CliUsageError(`--${flag} must be a whole number from 0 to ${max}, got "${text}".`)
  }
  return Number(text)
}

function parseBoolean(text: string, variable: string): boolean {
  const normalized = text.trim().toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true
  if (['0', 'false', 'no', 'off', ''].includes(normalized)) return false
  throw new CliUsageError(`${variable} must be 1/true/yes or 0/false/no, got "${text}".`)
}

/**
 * Reads the command line and environment into what to do. Throws a
 * `CliUsageError` with a one-line message for anything it cannot use.
 */
export function parseCommandLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliCommand {
  let parsed
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: Object.fromEntries(FLAGS.map((flag) => [flag.name, { type: flag.boolean ? 'boolean' : 'string' } as const])),
    })
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error)
    throw new CliUsageError(`${message.replace(/\.$/, '')}. Run petstore-sim --help for the options.`)
  }
  const values = parsed.values as Record<string, string | boolean | undefined>
  if (values['help'] === true) return { kind: 'help' }
  if (values['version'] === true) return { kind: 'version' }

  const read = (name: string): string | undefined => {
    const flag = FLAGS.find((candidate) => candidate.name === name)
    const value = values[name]
    if (typeof value === 'string') return value
    return flag?.env ? env[flag.env] : undefined
  }
  const readBoolean = (name: string): boolean | undefined => {
    if (values[name] === true) return true
    const flag = FLAGS.find((candidate) => candidate.name === name)
    const fromEnv = flag?.env ? env[flag.env] : undefined
    return fromEnv === undefined ? undefined : parseBoolean(fromEnv, flag?.env ?? name)
  }

  const options: SimulatorServerOptions = {}
  const port = read('port')
  if (port !== undefined) options.port = parseWholeNumber(port, 'port', 65535)
  const host = read('host')
  if (host !== undefined) {
    if (host.trim() === '') throw new CliUsageError('--host must not be empty.')
    options.host = host
  }
  const scenario = read('scenario')
  if (scenario !== undefined) options.scenario = scenario
  const seed = read('seed')
  if (seed !== undefined) options.seed = parseWholeNumber(seed, 'seed')
  const basePath = read('base-path')
  if (basePath !== undefined) {
    if (!basePath.startsWith('/') || /[?#\s]/.test(basePath)) throw new CliUsageError(`--base-path must be a path starting with "/", such as /v1, got "${basePath}".`)
    options.basePath = basePath
  }
  const exposeStatus = readBoolean('expose-status')
  if (exposeStatus !== undefined) options.exposeStatus = exposeStatus
  const afterCancel = read('after-cancel')
  if (afterCancel !== undefined) {
    if (afterCancel !== 'keep' && afterCancel !== 'remove') throw new CliUsageError(`--after-cancel must be keep or remove, got "${afterCancel}".`)
    options.afterCancel = afterCancel satisfies AfterCancel
  }
  const deprecatedAt = read('deprecated-at')
  const sunsetAt = read('sunset-at')
  for (const [name, value] of [['deprecated-at', deprecatedAt], ['sunset-at', sunsetAt]] as const) {
    if (value !== undefined && Number.isNaN(new Date(value).getTime())) throw new CliUsageError(`--${name} must be a date such as 2027-01-01T00:00:00Z, got "${value}".`)
  }
  if (deprecatedAt !== undefined || sunsetAt !== undefined) {
    options.deprecation = { ...(deprecatedAt === undefined ? {} : { deprecatedAt }), ...(sunsetAt === undefined ? {} : { sunsetAt }) }
  }
  const latency = read('latency')
  if (latency !== undefined) {
    if (!/^\d+(-\d+)?$/.test(latency)) throw new CliUsageError(`--latency must be milliseconds such as 50 or 50-400, got "${latency}".`)
    options.latency = latency
  }
  const rateLimit = read('rate-limit')
  if (rateLimit !== undefined) {
    if (!/^\d+\/\d+(s|m|h)?$/.test(rateLimit)) throw new CliUsageError(`--rate-limit must be <requests>/<window> such as 100/60s, got "${rateLimit}".`)
    options.rateLimit = rateLimit
  }
  const maxSessions = read('max-sessions')
  const sessionIdle = read('session-idle')
  if (maxSessions !== undefined || sessionIdle !== undefined) {
    options.sessions = {
      ...(maxSessions === undefined ? {} : { max: parseWholeNumber(maxSessions, 'max-sessions', 100_000) }),
      ...(sessionIdle === undefined ? {} : { idleSeconds: Math.max(1, parseWholeNumber(sessionIdle, 'session-idle')) }),
    }
  }
  const journalSize = read('journal-size')
  if (journalSize !== undefined) options.journalSize = parseWholeNumber(journalSize, 'journal-size', 1_000_000)
  if (readBoolean('no-admin') === true) options.admin = false
  const adminToken = read('admin-token')
  if (adminToken !== undefined) {
    if (!isBearerToken(adminToken)) throw new CliUsageError('--admin-token must be one word of letters, digits and -._~+/ characters (it is sent as a bearer token).')
    options.adminToken = adminToken
  }
  const allowedHosts = read('allowed-hosts')
  if (allowedHosts !== undefined) {
    const names = list(allowedHosts)
    if (names.length === 0) throw new CliUsageError('--allowed-hosts must name hosts, such as qa.example.test,.corp.test, or be all.')
    const bad = names.find((name) => name !== 'all' && hostOf(name.replace(/^\./, '')) === null)
    if (bad !== undefined) throw new CliUsageError(`--allowed-hosts takes host names or addresses, got "${bad}".`)
    options.allowedHosts = names.includes('all') ? 'all' : names
  }
  const adminOrigins = read('admin-origins')
  if (adminOrigins !== undefined) {
    const origins = list(adminOrigins)
    const bad = origins.find((origin) => !/^https?:\/\/[^/?#\s]+$/.test(origin))
    if (origins.length === 0 || bad !== undefined) throw new CliUsageError(`--admin-origins takes origins such as https://qa.example.test (scheme, host, port; no path), got "${bad ?? adminOrigins}".`)
    options.adminOrigins = origins
  }
  return { kind: 'start', options, quiet: readBoolean('quiet') ?? false }
}
