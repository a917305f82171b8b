import { DEFAULT_DEPRECATION } from '../core/operations/get-pet-by-id.js'
import { describeOperations } from '../core/operations/registry.js'
import { BUILTIN_SCENARIOS } from '../core/scenario/builtin-scenarios.js'
import { checkReachablePath } from '../core/simulator/options.js'
import { DEFAULT_JOURNAL_SIZE } from '../core/state/journal.js'
import { DEFAULT_HOST, DEFAULT_PORT } from '../transports/standalone/start-server.js'
import * as to from './flag-values.js'
import { CliUsageError } from './usage-error.js'

export interface Flag {
  name: string
  env: string
  value?: string
  help: string
  boolean?: true
  /** The option the flag sets, its one user: `latency`, `sessions.max`, `proxy.target`. */
  option?: string
  /**
   * Its value as the option (undefined: none), or a CliUsageError or ValidationError naming `label`;
   * without it, the value as given. `never`: each takes what its flag gives, text or a boolean.
   */
  read?: (value: never, label: string) => unknown
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what is refused.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/** --state-file: a path printed in messages, so without controls; an empty variable is none (`-e PETSTORE_SIM_STATE_FILE=`). */
function stateFile(path: string, label: string): string | undefined {
  if (path === '' && label !== '--state-file') return undefined
  if (path === '' || CONTROL.test(path)) throw new CliUsageError(`${label} must be the path of a file, with no control characters in it.`)
  return path
}

/** Every flag, in the order --help lists them. Each can also come from its environment variable. */
export const FLAGS: readonly Flag[] = [
  {
    name: 'port',
    env: 'PETSTORE_SIM_PORT',
    option: 'port',
    read: to.whole(65535),
    value: '<n>',
    help: `Port to listen on; 0 picks a free one. Default ${DEFAULT_PORT}.`,
  },
  {
    name: 'host',
    env: 'PETSTORE_SIM_HOST',
    option: 'host',
    read: to.hostName,
    value: '<address>',
    help: `Address to bind. Default ${DEFAULT_HOST} (this machine only).`,
  },
  {
    name: 'scenario',
    env: 'PETSTORE_SIM_SCENARIO',
    option: 'scenario',
    value: '<name|path>',
    help: `A built-in scenario (${Object.keys(BUILTIN_SCENARIOS).join(', ')}) or a path to your own JSON file. Default default.`,
  },
  {
    name: 'scenarios-dir',
    env: 'PETSTORE_SIM_SCENARIOS_DIR',
    option: 'scenariosDir',
    read: to.folder,
    value: '<folder>',
    help:
      'A folder of scenario files: each <name>.json is a scenario that --scenario and POST /__sim/reset name, read again when it changes; ' +
      'POST /__sim/scenarios saves the state into it. Default none.',
  },
  {
    name: 'seed',
    env: 'PETSTORE_SIM_SEED',
    option: 'seed',
    read: to.whole(),
    value: '<n>',
    help: "Seed for the scenario's order generator. Default: the scenario's own.",
  },
  {
    name: 'base-path',
    env: 'PETSTORE_SIM_BASE_PATH',
    option: 'basePath',
    read: checkReachablePath,
    value: '<path>',
    help: 'Path the API is served under, such as /api/v1: plain segments (no . or .., no %-escapes), not under /__sim. Default /v1.',
  },
  {
    name: 'expose-status',
    env: 'PETSTORE_SIM_EXPOSE_STATUS',
    option: 'exposeStatus',
    boolean: true,
    help: "Add each order's status to the list. Default: the scenario's setting, else off.",
  },
  {
    name: 'after-cancel',
    env: 'PETSTORE_SIM_AFTER_CANCEL',
    option: 'afterCancel',
    read: to.takenByCore('afterCancel', (label, text) => `${label} must be keep or remove, got "${text}".`),
    value: 'keep|remove',
    help: "Keep a cancelled order in the list, or remove it. Default: the scenario's setting, else keep.",
  },
  {
    name: 'deprecated-at',
    env: 'PETSTORE_SIM_DEPRECATED_AT',
    option: 'deprecation.deprecatedAt',
    read: to.date('deprecatedAt'),
    value: '<date>',
    help: `Date GET /pets/{petId} announces in its Deprecation header, an ISO 8601 date-time with a time zone such as 2026-01-01T00:00:00Z. Default ${DEFAULT_DEPRECATION.deprecatedAt}.`,
  },
  {
    name: 'sunset-at',
    env: 'PETSTORE_SIM_SUNSET_AT',
    option: 'deprecation.sunsetAt',
    read: to.date('sunsetAt'),
    value: '<date>',
    help: `Date GET /pets/{petId} announces in its Sunset header, not before the Deprecation date. Default ${DEFAULT_DEPRECATION.sunsetAt}.`,
  },
  {
    name: 'latency',
    env: 'PETSTORE_SIM_LATENCY',
    option: 'latency',
    read: to.takenByCore('latency', to.latencyLine),
    value: '<ms|min-max>',
    help: 'Delay every answer: 50, or a range such as 50-400. Default none.',
  },
  {
    name: 'rate-limit',
    env: 'PETSTORE_SIM_RATE_LIMIT',
    option: 'rateLimit',
    read: to.takenByCore(
      'rateLimit',
      (label, text) => `${label} must be <requests>/<window>, both above 0, such as 100/60s, got "${text}".`,
    ),
    value: '<n/window>',
    help: 'Per API key, such as 100/60s: then 429 rate_limited and RateLimit headers. Default off.',
  },
  {
    name: 'ship-after',
    env: 'PETSTORE_SIM_SHIP_AFTER',
    option: 'lifecycle',
    read: to.shipAfter,
    value: '<duration>',
    help: "Pending orders ship on their own this long after they are loaded, reset or added: 30s, or a range such as 10s-60s drawn from the seed. Overrides the scenario's. Default none.",
  },
  {
    name: 'max-sessions',
    env: 'PETSTORE_SIM_MAX_SESSIONS',
    option: 'sessions.max',
    read: to.whole(100_000),
    value: '<n>',
    help: 'How many X-Sim-Session sessions live at once; past it a new session gets 503 too_many_sessions (none in use is dropped). Default 100.',
  },
  {
    name: 'session-idle',
    env: 'PETSTORE_SIM_SESSION_IDLE',
    option: 'sessions.idleSeconds',
    read: (text: string, label) => Math.max(1, to.whole()(text, label)),
    value: '<seconds>',
    help: 'Drop a session unused for this long. Default 1800.',
  },
  {
    name: 'max-session-memory',
    env: 'PETSTORE_SIM_MAX_SESSION_MEMORY',
    option: 'sessions.maxBytes',
    read: to.mebibytes,
    value: '<MiB>',
    help: 'What the sessions may hold in all (orders they changed or added, list bodies, journals); past it a new session gets 503. Default 256.',
  },
  {
    name: 'journal-size',
    env: 'PETSTORE_SIM_JOURNAL_SIZE',
    option: 'journalSize',
    read: to.whole(1_000_000),
    value: '<n>',
    help: `How many recent requests GET /__sim/requests keeps. Default ${DEFAULT_JOURNAL_SIZE}.`,
  },
  {
    name: 'state-file',
    env: 'PETSTORE_SIM_STATE_FILE',
    option: 'stateFile',
    read: stateFile,
    value: '<path>',
    help:
      'Keep every state (the default one and each session; not the journal) in this file: written within 5 s of a change ' +
      'and on SIGTERM/SIGINT, restored at start. Its folder must exist and be writable; a file that cannot be restored is ' +
      'moved to <path>.corrupt-<time> and the start is fresh. Default none.',
  },
  {
    name: 'proxy',
    env: 'PETSTORE_SIM_PROXY',
    option: 'proxy.target',
    read: (text: string) => (text === '' ? undefined : text),
    value: '<url>',
    help:
      "Forward every request under the base that no operation or scenario route takes to the real service's API base at <url>, " +
      "and pass its answer back (docs/proxy.md). The spec's operations are always simulated; /__sim is never forwarded. Default off.",
  },
  {
    name: 'proxy-key',
    env: 'PETSTORE_SIM_PROXY_KEY',
    option: 'proxy.key',
    value: '<token>',
    help: "The real service's key, sent instead of the client's Authorization on forwarded requests; never printed or logged. Default: the client's header as sent.",
  },
  {
    name: 'proxy-timeout',
    env: 'PETSTORE_SIM_PROXY_TIMEOUT',
    option: 'proxy.timeoutSeconds',
    read: to.seconds,
    value: '<seconds>',
    help: 'How long a forwarded request may take, answer body included; past it 504 proxy_timeout. Default 10.',
  },
  {
    name: 'record',
    env: 'PETSTORE_SIM_RECORD',
    option: 'proxy.record',
    boolean: true,
    help:
      "With --proxy: start from the deployment's own orders (one GET <url>/store/orders with --proxy-key before the server starts, " +
      'unless --scenario or PETSTORE_SIM_SCENARIO names one, which is kept), and keep each forwarded answer (status below 500, ' +
      'body empty, JSON or UTF-8 text up to 1 MiB) as a route per method, path and query, answered offline from then on; POST /__sim/scenarios saves both, and the log says which ' +
      'documented outcomes the traffic showed. Default off.',
  },
  {
    name: 'pets',
    env: 'PETSTORE_SIM_PETS',
    option: 'pets',
    boolean: true,
    help: "With --proxy --record: also read at start the deployment's pet records (GET /pets/{petId} for each petId its orders name, the first 100), as record --pets does. Default off.",
  },
  {
    name: 'no-admin',
    env: 'PETSTORE_SIM_NO_ADMIN',
    option: 'admin',
    read: (on: boolean) => (on ? false : undefined),
    boolean: true,
    help: 'Turn the admin API under /__sim off (it answers 404).',
  },
  {
    name: 'admin-token',
    env: 'PETSTORE_SIM_ADMIN_TOKEN',
    option: 'adminToken',
    read: to.adminToken,
    value: '<secret>',
    help:
      'Require "Authorization: Bearer <secret>" on every admin call (401 otherwise). ' +
      'Default: none on a loopback --host; a random one, printed at start, on any other.',
  },
  {
    name: 'allowed-hosts',
    env: 'PETSTORE_SIM_ALLOWED_HOSTS',
    option: 'allowedHosts',
    read: to.allowedHosts,
    value: '<a,b|all>',
    help:
      'Host names answered besides loopback ones and the bound address (.example.test: a domain and its subdomains); ' +
      'all turns the Host check off. Others get 403.',
  },
  {
    name: 'admin-origins',
    env: 'PETSTORE_SIM_ADMIN_ORIGINS',
    option: 'adminOrigins',
    read: to.adminOrigins,
    value: '<origin,...>',
    help: 'Web page origins allowed to call the admin API besides loopback ones, such as https://qa.example.test. Others get 403.',
  },
  { name: 'quiet', env: 'PETSTORE_SIM_QUIET', option: 'quiet', boolean: true, help: 'Do not log one line per request.' },
  { name: 'help', env: '', boolean: true, help: 'Show this help and exit.' },
  { name: 'version', env: '', boolean: true, help: 'Show the version and exit.' },
]

export function helpText(): string {
  return commandHelp(
    [
      'petstore-sim [options]     (or: npm start -- [options])',
      '       petstore-sim verify --target <url> --key <token> [verify options]',
      '       petstore-sim record --target <url> --name <name> --key <token> [--out <file>]   (see record --help)',
      '       petstore-sim import-har <file.har> --name <name> [--base /v1] [--out <file>] [--strict]   (see import-har --help)',
      '       petstore-sim coverage [dir ...] [--require <id,...>] [--min <percent>] [--json]   (see coverage --help)',
      '       petstore-sim mcp [--url <server>]   MCP tools for coding assistants, on stdio (see mcp --help)',
    ].join('\n'),
    [
      'Serves the Petstore Orders Service simulator over HTTP: the API under the base path',
      `(${describeOperations('/v1')}) and`,
      'the admin API under /__sim. Flags win over environment variables; a PETSTORE_SIM_* variable',
      'that petstore-sim does not read is named in a warning.',
    ],
    FLAGS,
    'Verify options (petstore-sim verify: compare a running service with the simulator; see verify --help).',
    `It also takes ${SIMULATOR_FLAGS.map((name) => `--${name}`).join(', ')} as above.`,
    ...flagLines(VERIFY_FLAGS.filter((flag) => !FLAGS.some((own) => own.name === flag.name))),
    '',
    'Boolean variables take 1/true/yes or 0/false/no.',
    'Example: petstore-sim --port 4011 --scenario shipped',
  )
}

/** The server's flags that `verify` takes too, read as the server reads them (variables included). */
const SIMULATOR_FLAGS = ['scenario', 'seed', 'expose-status', 'after-cancel', 'deprecated-at', 'sunset-at']

/** Requests a second sent to the service by default. */
export const DEFAULT_RATE = 5
/** Seconds each request may take, headers and body. */
export const DEFAULT_TIMEOUT_SECONDS = 10

/** `--rate` and `--timeout`, as both commands list them. */
export const SERVICE_FLAGS: readonly Flag[] = [
  {
    name: 'rate',
    env: '',
    value: '<n>',
    help: `At most this many requests a second to the service (0.1 to 100). Default ${DEFAULT_RATE}.`,
  },
  {
    name: 'timeout',
    env: '',
    value: '<seconds>',
    help: `Give up on one request after this long (0.1 to 600). Default ${DEFAULT_TIMEOUT_SECONDS}.`,
  },
]

/** Every flag of `petstore-sim verify`, in the order its help lists them. */
export const VERIFY_FLAGS: readonly Flag[] = [
  {
    name: 'target',
    env: '',
    value: '<url>',
    help: 'Base URL of the running service, such as https://api.example.test/v1 (http or https). Required.',
  },
  {
    name: 'key',
    env: 'PETSTORE_SIM_VERIFY_KEY',
    value: '<token>',
    help: 'Bearer key the service accepts. Required. Never printed; the variable keeps it out of the process list.',
  },
  ...FLAGS.filter((flag) => SIMULATOR_FLAGS.includes(flag.name)),
  { name: 'pet', env: '', value: '<id>', help: 'A petId for GET /pets/{petId}: checks its Deprecation and Sunset headers and its record.' },
  {
    name: 'shipped-order',
    env: '',
    value: '<id>',
    help: 'A shipped order of the service: checks that a cancel gives 409 (a shipped order cannot change).',
  },
  {
    name: 'pending-order',
    env: '',
    value: '<id>',
    help: 'DESTRUCTIVE: cancels this pending order on the service, then checks the list and a second cancel.',
  },
  ...SERVICE_FLAGS,
  { name: 'json', env: '', boolean: true, help: 'Print the report as JSON (docs/verify-report.schema.json).' },
  {
    name: 'write-options',
    env: '',
    value: '<file>',
    help: 'Write a scenario file: the scenario in force plus every switch that makes the simulator match the service.',
  },
  { name: 'help', env: '', boolean: true, help: 'Show this help and exit.' },
]

/** One line per flag: every command's help lists its flags so, in one column width. */
function flagLines(flags: readonly Flag[]): string[] {
  return flags.map((flag) => {
    const left = `  --${flag.name}${flag.value === undefined ? '' : ` ${flag.value}`}`
    return `${left.padEnd(32)}${flag.help}${flag.env === '' ? '' : ` [env ${flag.env}]`}`
  })
}

/** A command's --help: its usage line, what it does, its flags, then the rest (an example). */
export function commandHelp(usage: string, about: readonly string[], flags: readonly Flag[], ...after: string[]): string {
  return [`Usage: ${usage}`, '', ...about, '', 'Options:', ...flagLines(flags), '', ...after].join('\n')
}

export function verifyHelpText(): string {
  return commandHelp(
    'petstore-sim verify --target <url> --key <token> [options]',
    [
      'Probes a running Petstore Orders Service and compares every answer with what the simulator',
      'gives for the same request under the same options. Read-only unless --shipped-order or',
      '--pending-order is given. Exit code: 0 all match, 1 something differs, 2 bad usage or the',
      'target cannot be reached. Details: docs/verify.md.',
    ],
    VERIFY_FLAGS,
    'Example: PETSTORE_SIM_VERIFY_KEY=... petstore-sim verify --target https://staging.example.test/v1 --pet 1',
  )
}
