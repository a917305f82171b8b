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
  /** Admin calls after the reset, and what they do (", set order 1 to cancelled"). */
  admin?: { steps: RecipeStep[]; text: string }
  param: string
  withKey: boolean
  why: string
}

type Rule = (scenarios: readonly ScenarioFacts[], outcome: Outcome) => Plan | undefined

/** The first plain scenario's explicit order with this status, and the scenario. */
function orderWith(scenarios: readonly ScenarioFacts[], status: string) {
  for (const scenario of scenarios) {
    const order = scenario.orders.find((each) => each.status === status)
    if (order !== undefined) return { scenario: scenario.name, id: order.id }
  }
  return undefined
}

/** A rule per Error code (a Map: a code is never looked up among an object's inherited names). */
const BY_CODE = new Map(
  Object.entries<Rule>({
    unauthorized: ([scenario]) => scenario && { scenario: scenario.name, param: '1', withKey: false, why: 'every call needs a bearer key' },
    invalid_order_id: ([scenario]) => scenario && { scenario: scenario.name, param: 'abc', withKey: true, why: 'abc is not an order id' },
    order_not_found: (scenarios) => {
      const scenario = [...scenarios].filter((each) => !each.generates).sort((a, b) => a.orders.length - b.orders.length)[0]
      if (scenario === undefined) return undefined
      const id = freeId(scenario.orders.map((order) => order.id))
      return { scenario: scenario.name, param: id, withKey: true, why: `scenario ${scenario.name} holds no order ${id}` }
    },
    order_already_shipped: (scenarios) => {
      const found = orderWith(scenarios, 'shipped')
      return found && { scenario: found.scenario, param: found.id, withKey: true, why: `order ${found.id} has shipped` }
    },
    order_not_pending: (scenarios) => {
      const found = orderWith(scenarios, 'pending')
      if (found === undefined) return undefined
      const admin = {
        steps: [{ admin: { method: 'PATCH', path: `/__sim/orders/${found.id}`, body: { status: 'cancelled' } } } as const],
        text: `, set order ${found.id} to cancelled`,
      }
      return { scenario: found.scenario, admin, param: found.id, withKey: true, why: `order ${found.id} is cancelled, not pending` }
    },
    pet_not_found: (scenarios) => {
      const scenario = scenarios.find((each) => each.pets.length > 0)
      if (scenario === undefined) return undefined
      const id = freeId(scenario.pets)
      return { scenario: scenario.name, param: id, withKey: true, why: `scenario ${scenario.name} holds no pet ${id}` }
    },
  }),
)

/** A rule per success, by the operation's method and what its path names. */
const BY_SUCCESS = new Map(
  Object.entries<Rule>({
    'DELETE order': (scenarios) => {
      const found = orderWith(scenarios, 'pending')
      return found && { scenario: found.scenario, param: found.id, withKey: true, why: `order ${found.id} is pending` }
    },
    'GET list': (scenarios, outcome) => {
      const empty = outcome.id.endsWith('.empty')
      const scenario = scenarios.find((each) => (each.orders.length > 0 || each.generates) !== empty)
      if (scenario === undefined) return undefined
      const why = empty ? `scenario ${scenario.name} holds no orders` : `scenario ${scenario.name} holds orders`
      return { scenario: scenario.name, param: '', withKey: true, why }
    },
    'GET pet': (scenarios) => {
      const scenario = scenarios.find((each) => each.pets.length > 0)
      const id = scenario?.pets[0]
      return scenario && id !== undefined
        ? { scenario: scenario.name, param: id, withKey: true, why: `scenario ${scenario.name} holds pet ${id}` }
        : undefined
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
    request: { method: operation.method, path, ...(plan.withKey ? { headers: { Authorization: `Bearer ${DEFAULT_KEY}` } } : {}) },
  }
  const steps: RecipeStep[] = [
    { admin: { method: 'POST', path: '/__sim/reset', body: { scenario: plan.scenario } } },
    ...(plan.admin?.steps ?? []),
    request,
  ]
  const changed = plan.admin?.text ?? ''
  const key = plan.withKey ? 'with the key' : 'without a key'
  return { text: `Reset to scenario ${plan.scenario}${changed}, then ${operation.method} ${path} ${key}: ${plan.why}.`, steps }
}
