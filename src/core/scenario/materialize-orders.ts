import { SimpleFaker } from '@faker-js/faker'
import type { OrderGenerator, OrderStatus } from '../glossary.js'
import { int64Key } from '../int64.js'
import type { OrderRecord } from '../state/order-store.js'
import { MAX_ORDERS, ORDER_STATUSES, type CheckedScenario } from './parse-scenario.js'
import { ScenarioError } from './scenario-error.js'

const DEFAULT_REFERENCE_DATE = '2026-01-01T00:00:00.000Z'
const DAY = 24 * 60 * 60 * 1000
const INT64_MAX = 2n ** 63n - 1n

/** Where each status puts its ship date, in days around the reference date. */
const SHIP_WINDOW: Record<OrderStatus, [from: number, to: number]> = {
  shipped: [-30, -1],
  pending: [1, 30],
  cancelled: [-10, 20],
}

function generateOrders(generator: OrderGenerator, seed: number, firstId: bigint, source: string): OrderRecord[] {
  // A faker of our own (the shared default is module-level state), without locale data: numbers and dates need none.
  const faker = new SimpleFaker()
  faker.seed(seed)
  const count = typeof generator.count === 'number' ? generator.count : faker.number.int(generator.count)
  if (firstId + BigInt(count) - 1n > INT64_MAX) {
    // Unset, firstId follows the largest explicit id: name that, or the fix is not obvious.
    const given = generator.firstId === undefined ? `(one past the largest explicit id, by default) ${firstId}` : String(firstId)
    throw new ScenarioError(
      source,
      `generate.firstId ${given} leaves no room for ${count} ids below the int64 maximum; set "firstId" where generated ids should start`,
      'generate.firstId',
    )
  }
  const weighted = ORDER_STATUSES.flatMap((status) => {
    const weight = generator.statuses[status] ?? 0
    return weight > 0 ? [{ weight, value: status }] : []
  })
  const reference = Date.parse(generator.referenceDate ?? DEFAULT_REFERENCE_DATE)
  const orders: OrderRecord[] = []
  for (let index = 0; index < count; index++) {
    const status = faker.helpers.weightedArrayElement(weighted)
    const [fromDay, toDay] = SHIP_WINDOW[status]
    orders.push({
      id: (firstId + BigInt(index)).toString(),
      petId: String(faker.number.int({ min: 1, max: 5000 })),
      quantity: faker.helpers.weightedArrayElement([
        { weight: 6, value: 1 },
        { weight: 3, value: 2 },
        { weight: 1, value: faker.number.int({ min: 3, max: 12 }) },
      ]),
      shipDate: faker.date.between({ from: reference + fromDay * DAY, to: reference + toDay * DAY }).toISOString(),
      complete: status === 'shipped',
      status,
    })
  }
  return orders
}

/**
 * The initial orders of a scenario: its explicit records, then its generated
 * ones. `seed` replaces the generator's own seed; the same scenario and seed
 * always give the same orders.
 * @note Throws a `ScenarioError` when a generated id collides with an explicit one.
 */
export function materializeOrders(scenario: CheckedScenario, source: string, seed?: number): OrderRecord[] {
  const explicit: OrderRecord[] = (scenario.orders ?? []).map((order) => ({
    id: String(order.id),
    petId: order.petId === undefined ? null : String(order.petId),
    quantity: order.quantity ?? null,
    shipDate: order.shipDate ?? null,
    complete: order.complete ?? null,
    status: order.status,
  }))
  if (scenario.generate === undefined) {
    return explicit
  }
  const largestExplicit = explicit.reduce<bigint>((largest, order) => (BigInt(order.id) > largest ? BigInt(order.id) : largest), 0n)
  const firstId = BigInt(int64Key(scenario.generate.firstId) ?? (largestExplicit + 1n).toString())
  const generated = generateOrders(scenario.generate, seed ?? scenario.generate.seed, firstId, source)
  if (explicit.length + generated.length > MAX_ORDERS) {
    throw new ScenarioError(
      source,
      `the scenario would hold ${explicit.length + generated.length} orders; the most a scenario may hold is ${MAX_ORDERS}`,
      'generate.count',
    )
  }
  const explicitIds = new Map(explicit.map((order, index) => [order.id, index]))
  for (const order of generated) {
    const index = explicitIds.get(order.id)
    if (index !== undefined) {
      throw new ScenarioError(
        source,
        `generated order id ${order.id} collides with orders[${index}].id; set generate.firstId past the explicit ids`,
        'generate.firstId',
      )
    }
  }
  return [...explicit, ...generated]
}
