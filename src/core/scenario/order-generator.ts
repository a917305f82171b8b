import type { SimpleFaker } from '@faker-js/faker'
import type { OrderGenerator, OrderStatus } from '../glossary.js'
import type { OrderRecord } from '../state/order-store.js'
import { ORDER_STATUSES } from '../glossary.js'
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

/** What makes a generator's orders, ids from `firstId` on: the same generator and seed always give the same orders. */
export type GenerateOrders = (generator: OrderGenerator, seed: number, firstId: bigint, source: string) => OrderRecord[]

/**
 * The order generator over faker's `SimpleFaker`, which the caller loads: at
 * once, on first use, or in a chunk of its own (a page), so that a simulator
 * whose scenarios list their orders never loads faker.
 */
export function orderGenerator(Faker: typeof SimpleFaker): GenerateOrders {
  return (generator, seed, firstId, source) => generate(new Faker(), generator, seed, firstId, source)
}

// A faker of our own per call (the shared default is module-level state), without locale data: numbers and dates need none.
function generate(faker: SimpleFaker, generator: OrderGenerator, seed: number, firstId: bigint, source: string): OrderRecord[] {
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
