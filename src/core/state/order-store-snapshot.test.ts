import * as v from 'valibot'
import { afterEach, expect, test, vi } from 'vitest'
import type { OrderStatus } from '../glossary.js'
import { ownOrderRecordSchema } from './order-record-schema.js'
import { createOrderStore, OWN_ORDER_BYTES, type OwnOrderRecord } from './order-store.js'
import { orderRecord } from '../../../test/support/order-record.js'

const order = orderRecord

afterEach(() => {
  vi.restoreAllMocks()
})

const base = ['1', '2', '3', '4', '5'].map((id) => order(id))
const listed = (store: ReturnType<typeof createOrderStore>) => store.all().map((record) => `${record.id}:${record.status}`)

/** A store over `base` with a change, a removal, two additions (one of them removed again) and a re-added base id. */
async function changedStore() {
  const store = createOrderStore()
  await store.replaceAll(base)
  await store.change((orders) => orders.setStatus('2', 'cancelled'))
  await store.change((orders) => orders.setStatus('2', 'shipped'))
  await store.change((orders) => orders.remove('4'))
  await store.change((orders) => orders.add(order('9')))
  await store.change((orders) => orders.add(order('8', 'shipped')))
  await store.change((orders) => orders.remove('9'))
  await store.change((orders) => orders.add(order('-3')))
  return store
}

test('the own orders come back at once: list, find, count, largest id, then a later change wins', async () => {
  const original = await changedStore()
  const { records, nextPosition } = original.ownRecords()
  expect(JSON.parse(JSON.stringify(records))).toEqual(records)
  expect(records.map((record) => `${record.id}@${record.position}${record.removed ? ' removed' : ''}`).sort()).toEqual([
    '-3@7',
    '2@1',
    '4@3 removed',
    '8@6',
  ])
  expect(nextPosition).toBe(8)

  const store = createOrderStore()
  const reset = store.replaceAll(base)
  const before = store.version()
  store.restoreOwn(records, nextPosition)
  // Before anything settles: readers see the restored orders.
  expect(listed(store)).toEqual(listed(original))
  expect(listed(store)).toEqual(['1:pending', '2:shipped', '3:pending', '5:pending', '8:shipped', '-3:pending'])
  expect(store.find('2')?.status).toBe('shipped')
  expect(store.find('4')).toBeUndefined()
  expect(store.find('8')?.status).toBe('shipped')
  expect(store.owned()).toBe(4)
  expect(store.version()).toBeGreaterThan(before)
  await reset

  expect(await store.change(async (orders) => [orders.count(), orders.largestId()])).toEqual([6, 8n])
  await store.change((orders) => orders.setStatus('2', 'cancelled'))
  await store.change((orders) => orders.remove('8'))
  await store.change((orders) => orders.add(order('10')))
  expect(listed(store)).toEqual(['1:pending', '2:cancelled', '3:pending', '5:pending', '-3:pending', '10:pending'])
  expect(store.find('2')?.status).toBe('cancelled')
  expect(store.find('8')).toBeUndefined()
  expect(store.owned()).toBe(4)
  expect(store.ownRecords().nextPosition).toBe(9)
})

test('a restored store gives back the same own orders, before and after they reach the collection', async () => {
  const original = await changedStore()
  const snapshot = original.ownRecords()
  const store = createOrderStore()
  void store.replaceAll(base)
  store.restoreOwn(snapshot.records, snapshot.nextPosition)
  const byId = (records: readonly OwnOrderRecord[]) => [...records].sort((a, b) => a.position - b.position)
  expect(byId(store.ownRecords().records)).toEqual(byId(snapshot.records))
  await store.change(async () => undefined)
  expect(byId(store.ownRecords().records)).toEqual(byId(snapshot.records))
  expect(store.ownRecords().nextPosition).toBe(snapshot.nextPosition)
})

test('a change queued before the restore builds on the restored orders', async () => {
  const store = createOrderStore()
  await store.replaceAll(base)
  const change = store.change((orders) => orders.setStatus('1', 'cancelled'))
  void store.replaceAll(base)
  store.restoreOwn([{ ...order('1', 'shipped'), position: 0, removed: false }], 5)
  await change
  // The change ran on the restored state: '1' was no longer pending, and it was set as asked.
  expect(store.find('1')?.status).toBe('cancelled')
  expect(store.owned()).toBe(1)
})

test('a copy into the collection that fails keeps the restored orders shown, and the next change copies them', async () => {
  let bytes = 0
  const store = createOrderStore({ charge: (delta) => (bytes += delta) })
  await store.replaceAll(base)
  const uuid = vi.spyOn(crypto, 'randomUUID').mockImplementation(() => {
    throw new Error('no record keys here')
  })
  store.restoreOwn([{ ...order('1', 'shipped'), position: 0, removed: false }], 5)
  await expect(store.change((orders) => orders.setStatus('2', 'cancelled'))).rejects.toThrow('no record keys here')
  expect([store.find('1')?.status, store.find('2')?.status, store.owned(), bytes]).toEqual(['shipped', 'pending', 1, OWN_ORDER_BYTES])
  uuid.mockRestore()
  await store.change((orders) => orders.setStatus('2', 'cancelled'))
  expect(listed(store).slice(0, 2)).toEqual(['1:shipped', '2:cancelled'])
  expect([store.owned(), bytes]).toEqual([2, 2 * OWN_ORDER_BYTES])
})

test('the restored orders are charged first, and a refused charge restores nothing', async () => {
  let bytes = 0
  let limit = Number.POSITIVE_INFINITY
  const charge = (delta: number) => {
    if (bytes + delta > limit) throw new RangeError('over the session memory bound')
    bytes += delta
  }
  const { records, nextPosition } = (await changedStore()).ownRecords()
  const store = createOrderStore({ charge })
  await store.replaceAll(base)
  limit = 3 * OWN_ORDER_BYTES
  const version = store.version()
  expect(() => store.restoreOwn(records, nextPosition)).toThrow('over the session memory bound')
  expect(bytes).toBe(0)
  expect(store.version()).toBe(version)
  expect(listed(store)).toEqual(base.map((record) => `${record.id}:pending`))
  expect(store.ownRecords()).toEqual({ records: [], nextPosition: 5 })

  limit = Number.POSITIVE_INFINITY
  store.restoreOwn(records, nextPosition)
  expect(bytes).toBe(4 * OWN_ORDER_BYTES)
  await store.change((orders) => orders.remove('8'))
  expect(bytes).toBe(3 * OWN_ORDER_BYTES)
  await store.replaceAll(base)
  expect(bytes).toBe(0)
})

test('own orders that do not fit the base are refused whole', async () => {
  const own = (id: string, position: number, removed = false, status: OrderStatus = 'shipped'): OwnOrderRecord => ({
    ...order(id, status),
    position,
    removed,
  })
  const refusals: [string, OwnOrderRecord[], number, RegExp][] = [
    ['an id twice', [own('2', 1), own('2', 1)], 5, /order 2 is there twice/],
    ['a position at nextPosition', [own('9', 6)], 6, /order 9 stands at 6, outside 0 to 5/],
    ['a tombstone of an order the base lacks', [own('9', 5, true)], 6, /order 9 is removed but the base does not hold it/],
    ['a changed order out of its place', [own('3', 0)], 5, /order 3 stands at 0, where the base holds another order/],
    ['an order the base lacks inside the base', [own('9', 1)], 5, /order 9 stands at 1/],
    ['two added orders at one place', [own('8', 5), own('9', 5)], 6, /two added orders stand at 5/],
    ['a nextPosition inside the base', [], 4, /nextPosition 4/],
    ['a status no order has', [own('1', 0, false, 'lost' as OrderStatus)], 5, /./],
  ]
  for (const [why, records, nextPosition, message] of refusals) {
    let bytes = 0
    const store = createOrderStore({ charge: (delta) => (bytes += delta) })
    await store.replaceAll(base)
    const version = store.version()
    // A good record first: it must not be kept when a later one is refused.
    expect(() => store.restoreOwn([own('1', 0, true), ...records], nextPosition), why).toThrow(message)
    expect(store.find('1'), why).toBeDefined()
    expect([bytes, store.version(), store.owned(), store.ownRecords().nextPosition], why).toEqual([0, version, 0, 5])
  }
  const store = createOrderStore()
  await store.replaceAll(base)
  store.restoreOwn([own('1', 0)], 5)
  expect(() => store.restoreOwn([own('2', 1)], 5)).toThrow(/has own orders already/)
  expect(store.find('2')?.status).toBe('pending')
})

test('the record schema refuses what JSON from outside may hold', () => {
  const good = { ...order('1'), position: 0, removed: false }
  expect(v.safeParse(ownOrderRecordSchema, good).success).toBe(true)
  expect(v.safeParse(ownOrderRecordSchema, { ...good, id: '9223372036854775807', shipDate: '2026-03-01T12:00:00Z' }).success).toBe(true)
  const bad: Record<string, unknown>[] = [
    { ...good, id: '01' },
    { ...good, id: '1.0' },
    { ...good, id: 1 },
    { ...good, id: '9223372036854775808' },
    { ...good, petId: ' 7' },
    { ...good, quantity: 1.5 },
    { ...good, quantity: Number.MAX_SAFE_INTEGER + 1 },
    { ...good, shipDate: 'tomorrow' },
    { ...good, shipDate: `2026-03-01T12:00:00Z${'\u0000'.repeat(100)}` },
    { ...good, status: 'lost' },
    { ...good, position: -1 },
    { ...good, position: 0.5 },
    { ...good, position: Number.POSITIVE_INFINITY },
    { ...good, removed: 'no' },
    { ...good, extra: true },
    JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(good).slice(1)}`) as Record<string, unknown>,
  ]
  for (const input of bad) expect(v.safeParse(ownOrderRecordSchema, input).success, JSON.stringify(input)).toBe(false)
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
})
