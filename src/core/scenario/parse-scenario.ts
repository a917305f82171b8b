import { isBearerToken } from '../bearer-auth.js'
import { parseFault } from '../controls/faults.js'
import { parseLatencySettings, type LatencySettings } from '../controls/latency.js'
import { parseRateLimit } from '../controls/rate-limit.js'
import type { AfterCancel, JsonValue, Order, OrderGenerator, OrderStatus } from '../glossary.js'
import { mapValidation } from '../validation-error.js'
import { parseLifecycle, type LifecycleInput } from '../lifecycle/lifecycle-rule.js'
import type { Scenario } from './scenario.js'
import { int64Value } from '../int64.js'
import {
  expectBoolean,
  expectInt64,
  expectObject,
  expectOneOf,
  expectSafeInteger,
  expectString,
  type Fail,
  isPlainObject,
} from './expect-value.js'
import { describe } from '../quote-value.js'
import { isDateTime } from './date-time.js'
import { ScenarioError } from './scenario-error.js'

export const ORDER_STATUSES: readonly OrderStatus[] = ['pending', 'shipped', 'cancelled']
const AFTER_CANCEL: readonly AfterCancel[] = ['keep', 'remove']
/** What a scenario's name may be: also a file name in the scenarios folder, and safe in a path. */
export const SCENARIO_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/

/** A scenario after checking: its defaults filled in. */
export type CheckedScenario = Omit<Scenario, 'orders'> & { description: string; apiKeys: string[]; orders?: Order[] }

/** The key a scenario accepts when it does not list its own; every built-in but bad-key lists it. */
const DEFAULT_API_KEY = 'petstore-test-key'

/** The most orders one scenario may hold, explicit and generated together. */
export const MAX_ORDERS = 100_000
/** The deepest nesting a pet record may have. */
const MAX_PET_DEPTH = 32

const SCENARIO_FIELDS = [
  '$schema',
  'name',
  'description',
  'apiKeys',
  'orders',
  'generate',
  'pets',
  'exposeStatus',
  'afterCancel',
  'latency',
  'faults',
  'rateLimit',
  'lifecycle',
  'deprecation',
]
const ORDER_FIELDS = ['id', 'petId', 'quantity', 'shipDate', 'complete', 'status']
const GENERATOR_FIELDS = ['count', 'seed', 'statuses', 'firstId', 'referenceDate']

function parseOrder(value: unknown, field: string, fail: Fail): Order {
  const record = expectObject(value, field, ORDER_FIELDS, fail)
  if (record['id'] === undefined) fail(`${field}.id`, `${field}.id is required`)
  const order: Order = {
    id: int64Value(expectInt64(record['id'], `${field}.id`, fail)),
    // The spec's record has no status; an order that does not say is pending.
    status: record['status'] === undefined ? 'pending' : expectOneOf(record['status'], `${field}.status`, ORDER_STATUSES, fail),
  }
  if (record['petId'] !== undefined) order.petId = int64Value(expectInt64(record['petId'], `${field}.petId`, fail))
  if (record['quantity'] !== undefined) order.quantity = expectSafeInteger(record['quantity'], `${field}.quantity`, fail)
  if (record['shipDate'] !== undefined) {
    const shipDate = expectString(record['shipDate'], `${field}.shipDate`, fail)
    if (!isDateTime(shipDate)) {
      fail(`${field}.shipDate`, `${field}.shipDate must be an ISO 8601 date-time such as "2026-03-01T12:00:00Z", got ${describe(shipDate)}`)
    }
    order.shipDate = shipDate
  }
  if (record['complete'] !== undefined) order.complete = expectBoolean(record['complete'], `${field}.complete`, fail)
  return order
}

function parseGenerator(value: unknown, fail: Fail): OrderGenerator {
  const record = expectObject(value, 'generate', GENERATOR_FIELDS, fail)
  for (const required of ['count', 'seed', 'statuses']) {
    if (record[required] === undefined) fail(`generate.${required}`, `generate.${required} is required`)
  }
  let count: OrderGenerator['count']
  if (isPlainObject(record['count'])) {
    const range = expectObject(record['count'], 'generate.count', ['min', 'max'], fail)
    const min = expectSafeInteger(range['min'], 'generate.count.min', fail, 0, MAX_ORDERS)
    const max = expectSafeInteger(range['max'], 'generate.count.max', fail, 0, MAX_ORDERS)
    if (min > max) fail('generate.count', `generate.count.min (${min}) must not be greater than generate.count.max (${max})`)
    count = { min, max }
  } else {
    count = expectSafeInteger(record['count'], 'generate.count', fail, 0, MAX_ORDERS)
  }
  const statusWeights = expectObject(record['statuses'], 'generate.statuses', ORDER_STATUSES, fail)
  const statuses: OrderGenerator['statuses'] = {}
  for (const status of ORDER_STATUSES) {
    const weight = statusWeights[status]
    if (weight === undefined) continue
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      fail(`generate.statuses.${status}`, `generate.statuses.${status} must be a weight of 0 or more, got ${describe(weight)}`)
    }
    statuses[status] = weight
  }
  if (!Object.values(statuses).some((weight) => weight > 0)) {
    fail('generate.statuses', 'generate.statuses must give at least one status a weight above 0')
  }
  const generator: OrderGenerator = {
    count,
    seed: expectSafeInteger(record['seed'], 'generate.seed', fail, 0),
    statuses,
  }
  if (record['firstId'] !== undefined) generator.firstId = int64Value(expectInt64(record['firstId'], 'generate.firstId', fail))
  if (record['referenceDate'] !== undefined) {
    const referenceDate = expectString(record['referenceDate'], 'generate.referenceDate', fail)
    if (!isDateTime(referenceDate)) {
      fail('generate.referenceDate', `generate.referenceDate must be an ISO 8601 date-time, got ${describe(referenceDate)}`)
    }
    generator.referenceDate = referenceDate
  }
  return generator
}

function parseDeprecation(value: unknown, fail: Fail): NonNullable<Scenario['deprecation']> {
  const record = expectObject(value, 'deprecation', ['deprecatedAt', 'sunsetAt'], fail)
  const dates: NonNullable<Scenario['deprecation']> = {}
  for (const name of ['deprecatedAt', 'sunsetAt'] as const) {
    if (record[name] === undefined) continue
    const text = expectString(record[name], `deprecation.${name}`, fail)
    if (!isDateTime(text))
      fail(`deprecation.${name}`, `deprecation.${name} must be an ISO 8601 date-time such as "2027-01-01T00:00:00Z", got ${describe(text)}`)
    dates[name] = text
  }
  return dates
}

function parsePet(value: unknown, field: string, depth: number, fail: Fail): JsonValue {
  if (depth > MAX_PET_DEPTH) fail(field, `${field} is nested more than ${MAX_PET_DEPTH} levels deep`)
  if (value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') return value
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(field, `${field} must be a JSON value, got ${describe(value)}`)
    return value
  }
  if (Array.isArray(value)) return value.map((item, index) => parsePet(item, `${field}[${index}]`, depth + 1, fail))
  if (isPlainObject(value)) {
    const copy: Record<string, JsonValue> = {}
    for (const [key, item] of Object.entries(value)) {
      // defineProperty, not assignment: a "__proto__" key stays a plain own property.
      Object.defineProperty(copy, key, {
        value: parsePet(item, `${field}.${key}`, depth + 1, fail),
        enumerable: true,
        writable: true,
        configurable: true,
      })
    }
    return copy
  }
  return fail(field, `${field} must be a JSON value, got ${describe(value)}`)
}

/**
 * Checks that a value is a valid scenario and returns a clean copy of it.
 * Throws a `ScenarioError` naming `source` and the first field at fault.
 * @note Orders are not generated here; see `materializeOrders`.
 */
export function parseScenario(value: unknown, source: string): CheckedScenario {
  const fail: Fail = (field, problem) => {
    throw new ScenarioError(source, problem, field || undefined)
  }
  const record = expectObject(value, '', SCENARIO_FIELDS, fail)
  if (record['name'] === undefined) fail('name', 'name is required')
  const name = expectString(record['name'], 'name', fail)
  if (!SCENARIO_NAME.test(name)) {
    fail('name', `name must be 1 to 64 lower-case letters, digits and dashes, starting with a letter or digit, got ${describe(name)}`)
  }
  const description = record['description'] === undefined ? '' : expectString(record['description'], 'description', fail)
  const keys = record['apiKeys'] ?? [DEFAULT_API_KEY]
  if (!Array.isArray(keys)) fail('apiKeys', `apiKeys must be an array of strings, got ${describe(keys)}`)
  const apiKeys = keys.map((key, index) => {
    const field = `apiKeys[${index}]`
    const text = expectString(key, field, fail)
    if (!isBearerToken(text)) {
      fail(field, `${field} must be usable as a bearer token (letters, digits and -._~+/ followed by optional =), got ${describe(text)}`)
    }
    return text
  })
  const scenario: CheckedScenario = { name, description, apiKeys }

  if (record['orders'] !== undefined) {
    if (!Array.isArray(record['orders'])) fail('orders', `orders must be an array, got ${describe(record['orders'])}`)
    if (record['orders'].length > MAX_ORDERS)
      fail('orders', `orders holds ${record['orders'].length} records; the most a scenario may hold is ${MAX_ORDERS}`)
    const seen = new Map<string, number>()
    scenario.orders = record['orders'].map((item, index) => {
      const order = parseOrder(item, `orders[${index}]`, fail)
      const key = String(order.id)
      const first = seen.get(key)
      if (first !== undefined) fail(`orders[${index}].id`, `orders[${index}].id ${key} duplicates orders[${first}].id`)
      seen.set(key, index)
      return order
    })
  }
  if (record['generate'] !== undefined) scenario.generate = parseGenerator(record['generate'], fail)
  if (record['pets'] !== undefined) {
    if (!isPlainObject(record['pets'])) fail('pets', `pets must be an object keyed by petId, got ${describe(record['pets'])}`)
    scenario.pets = parsePet(record['pets'], 'pets', 0, fail) as Record<string, JsonValue>
  }
  if (record['exposeStatus'] !== undefined) scenario.exposeStatus = expectBoolean(record['exposeStatus'], 'exposeStatus', fail)
  if (record['afterCancel'] !== undefined) scenario.afterCancel = expectOneOf(record['afterCancel'], 'afterCancel', AFTER_CANCEL, fail)
  // The controls' own readers, their messages turned into this file's field errors.
  const control = <T>(field: string, read: () => T): T =>
    mapValidation(read, (error) => {
      const message = error.message.replace(/\.$/, '')
      // "latency must be ..." already names its field; "Unknown latency key" does not.
      return fail(field, message.startsWith(field) ? message : `${field}: ${message}`)
    })
  if (record['latency'] !== undefined) {
    const latency = record['latency']
    control('latency', () => parseLatencySettings(latency))
    scenario.latency = latency as LatencySettings
  }
  if (record['faults'] !== undefined) {
    const faults = record['faults']
    if (!Array.isArray(faults)) fail('faults', `faults must be an array, got ${describe(faults)}`)
    scenario.faults = faults.map((fault, index) => control(`faults[${index}]`, () => parseFault(fault)))
  }
  if (record['rateLimit'] !== undefined) {
    const rateLimit = record['rateLimit']
    scenario.rateLimit = control('rateLimit', () => parseRateLimit(rateLimit))
  }
  if (record['lifecycle'] !== undefined) {
    const lifecycle = record['lifecycle']
    // Its errors already name the field at fault (lifecycle.shipAfter, lifecycle.min).
    mapValidation(
      () => parseLifecycle(lifecycle),
      (error) => fail(error.field, error.message.replace(/\.$/, '')),
    )
    if (lifecycle === null) fail('lifecycle', 'lifecycle must be an object; leave it out for none')
    scenario.lifecycle = lifecycle as LifecycleInput
  }
  if (record['deprecation'] !== undefined) scenario.deprecation = parseDeprecation(record['deprecation'], fail)
  return scenario
}
