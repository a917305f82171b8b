import type { FaultInput } from '../../core/controls/faults.js'
import type { LatencyInput, LatencySettings } from '../../core/controls/latency.js'
import type { RateLimit } from '../../core/controls/rate-limit.js'
import type { LifecycleInput } from '../../core/lifecycle/lifecycle-rule.js'
import { BUILTIN_SCENARIOS } from '../../core/scenario/builtin-scenarios.js'
import { parseScenario } from '../../core/scenario/parse-scenario.js'
import { isScenarioError } from '../../core/scenario/scenario-error.js'
import type { Scenario } from '../../core/scenario/scenario.js'
import { quote } from '../../core/quote-value.js'

/**
 * What a story declares as `parameters.petstoreSim`: the state it renders
 * against. Each field given replaces the scenario's own; `null` turns off a
 * scenario's latency, rate limit or lifecycle.
 */
export interface PetstoreSimParameters {
  /** A built-in scenario name or a scenario object. Default `"default"`. */
  scenario?: string | Scenario
  /** The seed of the scenario's order generator (and of the lifecycle's delays). */
  seed?: number
  latency?: LatencyInput | LatencySettings | null
  /** The faults in force; `[]` removes the scenario's. */
  faults?: FaultInput[]
  rateLimit?: string | RateLimit | null
  lifecycle?: LifecycleInput | null
}

const FIELDS = ['scenario', 'seed', 'latency', 'faults', 'rateLimit', 'lifecycle'] as const

/** The args a story may carry to switch the state from Storybook's Controls panel. */
export interface PetstoreSimArgs {
  petstoreScenario?: string
  petstoreLatency?: number
}

/**
 * Refuses, in the options of the one simulator behind every story, what a
 * story declares: there it would override every story's own choice.
 */
export function checkLoaderOptions(options: object): void {
  const misplaced = Object.keys(options).find((key) => (FIELDS as readonly string[]).includes(key))
  if (misplaced !== undefined)
    throw new TypeError(
      `Failed to configure petstoreSim(): "${misplaced}" belongs in parameters.petstoreSim (in preview.ts for every story), not in its options.`,
    )
  // Every render starts from the story's declared state: a state kept across reloads would undo that.
  if ('persist' in options && (options as { persist?: unknown }).persist !== undefined)
    throw new TypeError('Failed to configure petstoreSim(): persist is not for stories; each render starts from its declared state.')
}

/** One reset that gives a story exactly its declared state. */
export interface StoryReset {
  scenario: Scenario
  /** Always explicit, so that no story inherits the seed of the one before. */
  seed: number
}

const NULLABLE = new Set<string>(['latency', 'rateLimit', 'lifecycle'])
const PARAM = 'parameters.petstoreSim'

function fail(message: string): never {
  throw new TypeError(`Failed to set up the story's simulator: ${message}`)
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array'
  if (value === null) return 'null'
  return typeof value === 'object' ? 'an object' : `${typeof value} ${quote(value)}`
}

/** A built-in scenario's raw object; `field` names where the name came from. */
function builtinScenario(name: unknown, field: string): Scenario {
  if (typeof name !== 'string') fail(`${field} must be a scenario name or a scenario object, got ${describe(name)}.`)
  if (!Object.hasOwn(BUILTIN_SCENARIOS, name))
    fail(`${field} "${name}" is not a built-in scenario; the built-in scenarios are ${Object.keys(BUILTIN_SCENARIOS).join(', ')}.`)
  return BUILTIN_SCENARIOS[name as keyof typeof BUILTIN_SCENARIOS] as Scenario
}

/** Checks a scenario, naming the field under `prefix` (the core's problems start with the field). */
function checked(scenario: unknown, prefix: string): void {
  try {
    parseScenario(scenario, typeof scenario === 'object' && scenario !== null ? String((scenario as Scenario).name) : 'story')
  } catch (error) {
    if (isScenarioError(error)) fail(`${prefix}${error.problem}.`)
    throw error
  }
}

function readParameters(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value))
    fail(`${PARAM} must be an object such as { scenario: 'pending' }, got ${describe(value)}.`)
  const record = value as Record<string, unknown>
  const unknown = Object.keys(record).find((key) => !(FIELDS as readonly string[]).includes(key))
  if (unknown !== undefined) fail(`${PARAM}.${unknown} is not a field; the fields are ${FIELDS.join(', ')}.`)
  return record
}

/** The args' scenario and latency, which win over the parameters'. */
function readArgs(args: unknown): { scenario?: Scenario; latency?: number } {
  const record = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>
  const latency = record['petstoreLatency']
  if (latency !== undefined && (typeof latency !== 'number' || !Number.isSafeInteger(latency) || latency < 0))
    fail(`args.petstoreLatency must be a whole number of milliseconds, got ${describe(latency)}.`)
  return {
    ...(record['petstoreScenario'] !== undefined && { scenario: builtinScenario(record['petstoreScenario'], 'args.petstoreScenario') }),
    ...(latency !== undefined && { latency }),
  }
}

/**
 * Reads a story's `parameters.petstoreSim` (and its `petstoreScenario` /
 * `petstoreLatency` args, which win) into one reset. Throws a `TypeError`
 * naming the field at fault, e.g. `parameters.petstoreSim.latency must be ...`.
 */
export function storyReset(parameters: unknown, args?: unknown): StoryReset {
  const params = readParameters(parameters)
  const fromArgs = readArgs(args)
  let base: Scenario
  if (fromArgs.scenario !== undefined) base = fromArgs.scenario
  else if (typeof params['scenario'] === 'object' && params['scenario'] !== null && !Array.isArray(params['scenario'])) {
    base = params['scenario'] as Scenario
    checked(base, `${PARAM}.scenario.`)
  } else base = builtinScenario(params['scenario'] ?? 'default', `${PARAM}.scenario`)

  const scenario: Record<string, unknown> = { ...base }
  for (const field of ['latency', 'faults', 'rateLimit', 'lifecycle'] as const) {
    const value = field === 'latency' && fromArgs.latency !== undefined ? fromArgs.latency : params[field]
    if (value === undefined) continue
    if (value === null && NULLABLE.has(field)) delete scenario[field]
    else scenario[field] = value
  }
  checked(scenario, `${PARAM}.`)
  const seed = params['seed']
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0))
    fail(`${PARAM}.seed must be a whole number of 0 or more, got ${describe(seed)}.`)
  return { scenario: scenario as unknown as Scenario, seed: seed ?? base.generate?.seed ?? 0 }
}
