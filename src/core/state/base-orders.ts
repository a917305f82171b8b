import type { Int64Key } from '../int64.js'

export function largestIdOf(orders: Iterable<{ id: Int64Key }>): bigint | null {
  let largest: bigint | null = null
  for (const order of orders) {
    const id = BigInt(order.id)
    if (largest === null || id > largest) largest = id
  }
  return largest
}

/**
 * The orders a reset brings: shared, never changed, by every state reset to them (a scenario's sessions),
 * so a session costs what it changes rather than what its scenario holds. A copy of `records`, so a caller
 * changing its array later changes nothing here; indexed by id on first use.
 */
export function createBaseOrders<Order extends { id: Int64Key }>(records: readonly Order[]) {
  const held: readonly Order[] = [...records]
  let index: Map<Int64Key, number> | undefined
  let largest: bigint | null | undefined
  return {
    records: held,
    positionOf(id: Int64Key): number | undefined {
      index ??= new Map(held.map((record, position) => [record.id, position]))
      return index.get(id)
    },
    largestId(): bigint | null {
      if (largest === undefined) largest = largestIdOf(held)
      return largest
    },
  }
}

export type BaseOrders<Order extends { id: Int64Key }> = ReturnType<typeof createBaseOrders<Order>>
