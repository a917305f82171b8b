import { runInNewContext } from 'node:vm'
import { afterEach, expect, test, vi } from 'vitest'
import type { OrderStatus } from '../glossary.js'
import { createOrderStore, OWN_ORDER_BYTES } from './order-store.js'
import { orderRecord } from '../../../test/support/order-record.js'

const order = orderRecord

/** Plain objects made in another realm, as a Jest sandbox, a vm context or an iframe makes them. */
const foreign = <T>(value: T): T => runInNewContext('(json) => JSON.parse(json)')(JSON.stringify(value)) as T

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

test('records made in another node:vm context are stored, changed and listed', async () => {
  const records = foreign([order('1'), order('2'), order('3', 'shipped')])
  expect(Object.getPrototypeOf(records[0])).not.toBe(Object.prototype)
  const store = createOrderStore()
  await store.replaceAll(records)
  await store.change((orders) => orders.setStatus('2', 'cancelled'))
  expect(store.all().map((record) => [record.id, record.status])).toEqual([
    ['1', 'pending'],
    ['2', 'cancelled'],
    ['3', 'shipped'],
  ])
  expect(Object.getPrototypeOf(store.find('2'))).toBe(Object.prototype)
})

test('a status change works when structuredClone hands back objects of another realm, as in a Jest sandbox', async () => {
  // Jest copies the host's structuredClone into each test's context; @msw/data's update drafts its output with mutative.
  vi.stubGlobal('structuredClone', (value: unknown) => foreign(value))
  const store = createOrderStore()
  await store.replaceAll([order('1'), order('2')])
  await store.change((orders) => orders.setStatus('1', 'cancelled'))
  expect(store.find('1')?.status).toBe('cancelled')
  expect(store.find('2')?.status).toBe('pending')
})

test('changed orders keep their place in the list', async () => {
  const store = createOrderStore()
  await store.replaceAll(['1', '2', '3', '4', '5'].map((id) => order(id)))
  for (const id of ['4', '2', '5']) await store.change((orders) => orders.setStatus(id, 'cancelled'))
  expect(store.all().map((record) => `${record.id}:${record.status}`)).toEqual([
    '1:pending',
    '2:cancelled',
    '3:pending',
    '4:cancelled',
    '5:cancelled',
  ])
})

test('while a change is written, readers see every order once, and never the old state after the new one', async () => {
  const store = createOrderStore()
  await store.replaceAll(['1', '2', '3'].map((id) => order(id)))
  let done = false
  const change = store
    .change((orders) => orders.setStatus('2', 'shipped'))
    .then(() => {
      done = true
    })
  const seen: string[] = []
  while (!done) {
    seen.push(
      store
        .all()
        .map((record) => `${record.id}:${record.status}`)
        .join(' '),
    )
    await Promise.resolve()
  }
  await change
  const before = '1:pending 2:pending 3:pending'
  const after = '1:pending 2:shipped 3:pending'
  expect(seen.length).toBeGreaterThan(2)
  expect(seen.slice(seen.indexOf(after))).toEqual(seen.slice(seen.indexOf(after)).map(() => after))
  expect(seen.every((state) => state === before || state === after)).toBe(true)
  expect(store.all().map((record) => record.status)).toEqual(['pending', 'shipped', 'pending'])
})

test('a change the model refuses leaves every order as it was', async () => {
  const store = createOrderStore()
  await store.replaceAll([order('1'), order('2')])
  const before = store.version()
  await expect(store.change((orders) => orders.setStatus('1', 'lost' as OrderStatus))).rejects.toThrow()
  expect(store.all().map((record) => `${record.id}:${record.status}`)).toEqual(['1:pending', '2:pending'])
  expect(store.find('1')?.status).toBe('pending')
  // Refused before it was shown: nothing built from the orders went stale.
  expect(store.version()).toBe(before)
})

/** Every state readers saw while `write` ran, a microtask apart, with the version each was seen at. */
async function watch(store: ReturnType<typeof createOrderStore>, write: Promise<unknown>): Promise<{ version: number; orders: string }[]> {
  let done = false
  const settled = write.then(
    () => undefined,
    () => undefined,
  )
  void settled.then(() => {
    done = true
  })
  const seen: { version: number; orders: string }[] = []
  while (!done) {
    seen.push({
      version: store.version(),
      orders: store
        .all()
        .map((record) => `${record.id}:${record.status}`)
        .join(' '),
    })
    await Promise.resolve()
  }
  return seen
}

test('a change that fails leaves the orders as they were: readers never see part of it', async () => {
  const store = createOrderStore()
  await store.replaceAll([order('1'), order('2')])
  vi.spyOn(crypto, 'randomUUID').mockImplementation(() => {
    throw new Error('no record keys here')
  })
  const write = store.change((orders) => orders.setStatus('1', 'cancelled'))
  const seen = await watch(store, write)
  await expect(write).rejects.toThrow('no record keys here')

  expect(store.all().map((record) => record.status)).toEqual(['pending', 'pending'])
  expect(seen.filter((state) => state.orders.includes('cancelled'))).toEqual([])
})

test('a change with one record refused writes none of them', async () => {
  const store = createOrderStore()
  await store.replaceAll([order('1'), order('2')])
  const before = store.version()
  await expect(store.change((orders) => orders.put([order('1', 'cancelled'), order('2', 'lost' as OrderStatus)]))).rejects.toThrow()
  expect(store.all().map((record) => `${record.id}:${record.status}`)).toEqual(['1:pending', '2:pending'])
  expect(store.version()).toBe(before)
})

test('two writes of one change compose: readers never see the second without the first, nor an order twice', async () => {
  const store = createOrderStore()
  await store.replaceAll(['1', '2', '3'].map((id) => order(id)))
  const write = store.change((orders) => Promise.all([orders.setStatus('1', 'cancelled'), orders.setStatus('2', 'shipped')]))
  const seen = await watch(store, write)
  await write

  for (const { orders } of seen) expect(orders.split(' ').map((entry) => entry.split(':')[0])).toEqual(['1', '2', '3'])
  expect(seen.some((state) => state.orders.includes('2:shipped'))).toBe(true)
  for (const { orders } of seen.filter((state) => state.orders.includes('2:shipped'))) expect(orders).toContain('1:cancelled')
  expect(store.all().map((record) => record.status)).toEqual(['cancelled', 'shipped', 'pending'])
})

test('a reset is a copy: the model takes the orders with the next change, and one it fails to take is shown still and taken again', async () => {
  const store = createOrderStore()
  const records = [order('1'), order('2')]
  await store.replaceAll(records)
  records[0] = order('9')
  expect(store.all().map((record) => record.id)).toEqual(['1', '2'])
  const uuid = vi.spyOn(crypto, 'randomUUID').mockImplementation(() => {
    throw new Error('no record keys here')
  })
  await expect(store.change((orders) => orders.setStatus('1', 'cancelled'))).rejects.toThrow('no record keys here')
  expect(store.all().map((record) => `${record.id}:${record.status}`)).toEqual(['1:pending', '2:pending'])
  uuid.mockRestore()
  await store.change((orders) => orders.setStatus('1', 'cancelled'))
  expect(store.all().map((record) => `${record.id}:${record.status}`)).toEqual(['1:cancelled', '2:pending'])
  expect(store.find('2')?.status).toBe('pending')
})

test('an order of the base removed stays removed, and its id may be added again at the end', async () => {
  const store = createOrderStore()
  await store.replaceAll(['1', '2', '3'].map((id) => order(id)))
  await store.change((orders) => orders.remove('2'))
  expect(store.find('2')).toBeUndefined()
  expect(await store.change(async (orders) => [orders.count(), orders.largestId()])).toEqual([2, 3n])
  await store.change((orders) => orders.add(order('2', 'shipped')))
  await store.change((orders) => orders.add(order('4')))
  await store.change((orders) => orders.setStatus('1', 'cancelled'))
  expect(store.all().map((record) => `${record.id}:${record.status}`)).toEqual(['1:cancelled', '3:pending', '2:shipped', '4:pending'])
  await store.change((orders) => orders.remove('2'))
  await store.change((orders) => orders.remove('4'))
  expect(store.all().map((record) => record.id)).toEqual(['1', '3'])
  expect(store.find('2')).toBeUndefined()
  expect(await store.change(async (orders) => orders.count())).toBe(2)
})

test('a state is charged for the orders it holds of its own, and a reset gives them back', async () => {
  let bytes = 0
  const store = createOrderStore({ charge: (delta) => (bytes += delta) })
  await store.replaceAll(['1', '2'].map((id) => order(id)))
  await store.change((orders) => orders.setStatus('1', 'cancelled'))
  await store.change((orders) => orders.setStatus('1', 'shipped'))
  await store.change((orders) => orders.add(order('3')))
  await store.change((orders) => orders.remove('2'))
  expect(bytes).toBe(3 * OWN_ORDER_BYTES)
  await store.change((orders) => orders.remove('3'))
  expect(bytes).toBe(2 * OWN_ORDER_BYTES)
  await store.replaceAll([order('1')])
  expect(bytes).toBe(0)
})
