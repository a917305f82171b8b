// How to provoke each documented outcome on a fresh session of the default server: made from the operations'
// request templates, a rule per status or Error code, and the built-in scenarios' data (docs/coverage.md).
import { OPERATIONS, type OperationId } from '../operations/registry.js'
import { BUILTIN_SCENARIOS } from '../scenario/builtin-scenarios.js'
import type { Outcome } from './outcomes.js'

/** One step of a recipe: an admin call (a path under /__sim), or the API request (a path under the API base). */
export type RecipeStep =
  | { admin: { method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'; path: string; body?: unknown } }
  | { request: { method: 'GET' | 'DELETE'; path: string; headers?: Record<string, string> } }

/** How to provoke one outcome: one line for a person, and the steps a program follows (admin calls, then one request). */
export interface Recipe {
  text: string
  steps: RecipeStep[]
}

/** The key the default server's scenarios accept (a scenario that lists none accepts it). */
const DEFAULT_KEY = 'petstore-test-key'

/** What a recipe reads of a built-in scenario. */
interface ScenarioFacts {
  name: string
  /** Accepts the default key, and nothing (faults, latency, a rate limit, a lifecycle, routes) bends its answers. */
  plain: boolean
  /** The explicit orders' ids and statuses, in the file's order. */
  orders: { id: string; status: string }[]
  /** Generates orders as well (at least one). */
  generates: boolean
  /** The pets' ids. */
  pets: string[]
}

interface RawScenario {
  apiKeys?: string[] | null
  orders?: { id: number | string; status?: string }[]
  generate?: { count: number | { min: number } }
  pets?: Record<string, unknown>
  faults?: unknown[]
  latency?: unknown
  rateLimit?: unknown
  lifecycle?: unknown
  routes?: unknown[]
}

function factsOf(name: string, raw: RawScenario): ScenarioFacts {
  const keys = raw.apiKeys ?? [DEFAULT_KEY]
  const bent = [raw.latency, raw.rateLimit, raw.lifecycle].some((field) => field !== undefined)
  const count = raw.generate?.count
  return {
    name,
    plain: keys.includes(DEFAULT_KEY) && !bent && (raw.faults ?? []).length === 0 && (raw.routes ?? []).length === 0,
    orders: (raw.orders ?? []).map((order) => ({ id: String(order.id), status: order.status ?? 'pending' })),
    generates: count !== undefined && (typeof count === 'number' ? count : count.min) > 0,
    pets: Object.keys(raw.pets ?? {}),
  }
}

/** The built-in scenarios a recipe may reset to, in the catalog's order: read once, as every recipe reads them. */
const PLAIN_SCENARIOS: readonly ScenarioFacts[] = Object.freeze(
  Object.entries(BUILTIN_SCENARIOS)
    .map(([name, raw]) => factsOf(name, raw as RawScenario))
    .filter((scenario) => scenario.plain),
)

/** The smallest positive whole number that is not one of `taken`: an id a scenario does not hold. */
function freeId(taken: readonly string[]): string {
  let id = 1
  while (taken.includes(String(id))) id++
  return String(id)
}

/** What a rule decides: the scenario, admin calls after the reset, the path parameter, the key, and why. */
interface Plan {
  scenario: string
  param: string
  why: string
  /** Admin calls after the reset, and what they do (", set order 1 to cancelled"). */
  admin?: { steps: RecipeStep[]; text: string }
  /** Asked without a key (every other recipe sends the default one). */
  keyless?: true
}

type Rule = (scenarios: readonly ScenarioFacts[], outcome: Outcome) => Plan | undefined

/** The first scenario's explicit order with this status: its scenario and id, as a plan's start. */
function orderWith(scenarios: readonly ScenarioFacts[], status: string) {
  for (const { name, orders } of scenarios) {
    const order = orders.find((each) => each.status === status)
    if (order !== undefined) return { scenario: name, param: order.id }
  }
  return undefined
}

const withPets = (scenarios: readonly ScenarioFacts[]) => scenarios.find((each) => each.pets.length > 0)

/** A rule per Error code (a Map: a code is never looked up among an object's inherited names). */
const BY_CODE = new Map(
  Object.entries<Rule>({
    unauthorized: ([first]) => first && { scenario: first.name, param: '1', keyless: true, why: 'every call needs a bearer key' },
    invalid_order_id: ([first]) => first && { scenario: first.name, param: 'abc', why: 'abc is not an order id' },
    order_not_found: (scenarios) => {
      // The scenario with the fewest orders (that generates none), and an id it does not hold.
      const scenario = scenarios.filter((each) => !each.generates).sort((a, b) => a.orders.length - b.orders.length)[0]
      if (scenario === undefined) return undefined
      const param = freeId(scenario.orders.map((order) => order.id))
      return { scenario: scenario.name, param, why: `scenario ${scenario.name} holds no order ${param}` }
    },
    order_already_shipped: (scenarios) => {
      const found = orderWith(scenarios, 'shipped')
      return found && { ...found, why: `order ${found.param} has shipped` }
    },
    order_not_pending: (scenarios) => {
      // A pending order set to cancelled through the admin API: no built-in scenario holds a cancelled one.
      const found = orderWith(scenarios, 'pending')
      if (found === undefined) return undefined
      const patch = { admin: { method: 'PATCH', path: `/__sim/orders/${found.param}`, body: { status: 'cancelled' } } } as const
      const admin = { steps: [patch], text: `, set order ${found.param} to cancelled` }
      return { ...found, admin, why: `order ${found.param} is cancelled, not pending` }
    },
    pet_not_found: (scenarios) => {
      const scenario = withPets(scenarios)
      if (scenario === undefined) return undefined
      const param = freeId(scenario.pets)
      return { scenario: scenario.name, param, why: `scenario ${scenario.name} holds no pet ${param}` }
    },
  }),
)

/** A rule per success, by the operation's method and what its path names. */
const BY_SUCCESS = new Map(
  Object.entries<Rule>({
    'DELETE order': (scenarios) => {
      const found = orderWith(scenarios, 'pending')
      return found && { ...found, why: `order ${found.param} is pending` }
    },
    'GET list': (scenarios, outcome) => {
      const empty = outcome.id.endsWith('.empty')
      const scenario = scenarios.find((each) => (each.orders.length > 0 || each.generates) !== empty)
      return scenario && { scenario: scenario.name, param: '', why: `scenario ${scenario.name} holds ${empty ? 'no orders' : 'orders'}` }
    },
    'GET pet': (scenarios) => {
      const scenario = withPets(scenarios)
      const param = scenario?.pets[0]
      if (scenario === undefined || param === undefined) return undefined
      return { scenario: scenario.name, param, why: `scenario ${scenario.name} holds pet ${param}` }
    },
  }),
)

/** What an operation's path names: an order, a pet, or (none) the list. */
function subjectOf(path: string): string {
  if (path.includes('{orderId}')) return 'order'
  if (path.includes('{petId}')) return 'pet'
  return 'list'
}

/** The recipe of one documented outcome, for a simulator whose API base path is `basePath` (default '/v1'). */
export function recipeOf(outcome: Outcome, basePath = '/v1'): Recipe {
  const operation = OPERATIONS.find((each) => each.id === (outcome.operation as OperationId))
  const rule =
    operation === undefined
      ? undefined
      : outcome.code === null
        ? outcome.status < 300
          ? BY_SUCCESS.get(`${operation.method} ${subjectOf(operation.path)}`)
          : undefined
        : BY_CODE.get(outcome.code)
  const plan = operation === undefined ? undefined : rule?.(PLAIN_SCENARIOS, outcome)
  if (operation === undefined || plan === undefined) throw new RangeError(`No rule makes a recipe for the outcome ${outcome.id}.`)
  const base = basePath.replace(/\/+$/, '')
  const path = base + operation.path.replace(/\{[^}]+\}/, encodeURIComponent(plan.param))
  const request: RecipeStep = {
    request: { method: operation.method, path, ...(plan.keyless ? {} : { headers: { Authorization: `Bearer ${DEFAULT_KEY}` } }) },
  }
  const steps: RecipeStep[] = [
    { admin: { method: 'POST', path: '/__sim/reset', body: { scenario: plan.scenario } } },
    ...(plan.admin?.steps ?? []),
    request,
  ]
  const changed = plan.admin?.text ?? ''
  const key = plan.keyless ? 'without a key' : 'with the key'
  return { text: `Reset to scenario ${plan.scenario}${changed}, then ${operation.method} ${path} ${key}: ${plan.why}.`, steps }
}
