import type { OrderGenerator } from '../glossary.js'
import type { OrderRecord } from '../state/order-store.js'
import { ORDER_STATUSES } from '../glossary.js'
import table from './seeded-orders.json' with { type: 'json' }

/**
 * A generated order as the table keeps it, small because a page loads it:
 * its id is the first id plus its place, its ship date in ms, its status by
 * initial, and it is complete when shipped.
 */
export type SeededOrder = [petId: number, quantity: number, shipDate: number, status: 'p' | 's' | 'c']

const STATUS_OF = { p: 'pending', s: 'shipped', c: 'cancelled' } as const
// Its rows as the table script writes them (seeded-order-table.ts), checked by seeded-orders.test.ts.
const ROWS = table as unknown as Readonly<Record<string, SeededOrder[] | undefined>>

/**
 * What the generator's output depends on, and nothing else: the same key
 * always gives the same orders (the scenario's name and source never matter).
 */
export function generatorKey(generator: OrderGenerator, seed: number, firstId: bigint): string {
  const statuses = ORDER_STATUSES.map((status) => generator.statuses[status] ?? 0)
  return JSON.stringify([generator.count, seed, statuses, String(firstId), generator.referenceDate ?? null])
}

/**
 * The orders of a generator made ahead of time (`npm run build:seeded-orders`
 * writes the table: every generating built-in scenario at its own seed), or
 * undefined: then faker makes them. A page on a built-in scenario never loads
 * faker, and a reset copies instead of generating.
 */
export function seededOrders(generator: OrderGenerator, seed: number, firstId: bigint): OrderRecord[] | undefined {
  const rows = ROWS[generatorKey(generator, seed, firstId)]
  return rows?.map(([petId, quantity, shipDate, status], index) => ({
    id: (firstId + BigInt(index)).toString(),
    petId: String(petId),
    quantity,
    shipDate: new Date(shipDate).toISOString(),
    complete: status === 's',
    status: STATUS_OF[status],
  }))
}

/** Whether the table holds this generator's orders, without copying them. */
export function hasSeededOrders(generator: OrderGenerator, seed: number, firstId: bigint): boolean {
  return Object.hasOwn(ROWS, generatorKey(generator, seed, firstId))
}
