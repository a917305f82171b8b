import { Collection } from '@msw/data'
import type * as v from 'valibot'
import type { Int64Key } from '../int64.js'

/**
 * The @msw/data collection of a state's own orders, brought to what readers see one write at a time.
 * Its own module, imported on a state's first change (order-store.ts): readers never wait for it, so a
 * page that changes no order never loads @msw/data and mutative.
 */
export function createModel<Stored extends { id: string }>(schema: v.GenericSchema<Stored>, rebuildAbove: number) {
  // No sync() extension: each simulator (each browser tab) keeps its own orders.
  const model = new Collection({ schema })
  const records = new Map<Int64Key, NonNullable<ReturnType<typeof model.findFirst>>>()
  return {
    async store(entries: ReadonlyMap<Int64Key, Stored | null | undefined>, own: ReadonlyMap<Int64Key, Stored | null>): Promise<void> {
      if (entries.size * model.count() > rebuildAbove) {
        model.clear()
        records.clear()
        for (const [id, record] of own) if (record !== null) records.set(id, await model.create(record))
        return
      }
      for (const [id, next] of entries) {
        const old = records.get(id)
        if (old !== undefined) {
          model.delete(old)
          records.delete(id)
        }
        if (next != null) records.set(id, await model.create(next))
      }
    },
    clear(): void {
      model.clear()
      records.clear()
    },
  }
}

export type OrderModel<Stored extends { id: string }> = ReturnType<typeof createModel<Stored>>
