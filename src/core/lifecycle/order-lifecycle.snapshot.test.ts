import * as v from 'valibot'
import { expect, test } from 'vitest'
import type { OrderStatus } from '../glossary.js'
import { createOrderStore, type OrderStore } from '../state/order-store.js'
import type { TimeSource } from '../time-source.js'
import { lifecycleSnapshotSchema } from './lifecycle-snapshot-schema.js'
import { createOrderLifecycle, type LifecycleSnapshot } from './order-lifecycle.js'
import { orderRecord } from '../../../test/support/order-record.js'
import { testTime } from '../../../test/support/test-time.js'

const order = orderRecord
const base = ['1', '2', '3', '4', '5', '6'].map((id) => order(id))
const rule = { min: 10_000, max: 60_000 }
const T0 = Date.UTC(2026, 0, 1)
const fail = (error: unknown) => {
  throw error
}

/** A store and its lifecycle over `base`, as a state makes them. */
async function stateOn(time: TimeSource) {
  const store = createOrderStore()
  await store.replaceAll(base)
  return { store, lifecycle: createOrderLifecycle(store, fail, time) }
}

/** Sets an order's status in the store and tells the lifecycle, as an order edit does. */
async function setStatus(store: OrderStore, lifecycle: ReturnType<typeof createOrderLifecycle>, id: string, status: OrderStatus) {
  await store.change((orders) => orders.setStatus(id, status))
  if (status === 'pending') lifecycle.schedule(id)
  else lifecycle.unschedule(id)
}

/** Once every change queued so far (a ship the timer started) is written. */
const settled = (store: OrderStore) => store.change(async () => undefined)

test('a restored lifecycle has the same clock, and draws the same delay next', async () => {
  const time = testTime(T0)
  const advance = (ms: number) => time.advance(ms)
  const { store, lifecycle } = await stateOn(time)
  lifecycle.restart(rule, 7, base)
  await advance(5_000)
  await setStatus(store, lifecycle, '2', 'cancelled')
  await setStatus(store, lifecycle, '3', 'cancelled')
  await setStatus(store, lifecycle, '3', 'pending')
  for (const id of ['7', '8']) {
    await store.change((orders) => orders.add(order(id)))
    lifecycle.schedule(id)
  }
  await store.change((orders) => orders.remove('8'))
  lifecycle.unschedule('8')
  await lifecycle.advance(20_000)
  await advance(1_000)
  await settled(store)
  const clock = lifecycle.clock()
  expect(clock.advancedMs).toBe(20_000)
  expect(store.all().some((record) => record.status === 'shipped')).toBe(true)
  expect(clock.pending.length).toBeGreaterThan(1)

  const snapshot = JSON.parse(JSON.stringify(lifecycle.snapshot())) as LifecycleSnapshot
  expect(v.parse(lifecycleSnapshotSchema, snapshot)).toEqual(snapshot)
  // The schedule is not written: only the changes since the restart ('8' came and went, leaving nothing).
  expect(snapshot.changes.map(([id, due]) => [id, due === null])).toEqual([
    ['2', true],
    ['3', false],
    ['7', false],
  ])
  const copy = await stateOn(time)
  const { records, nextPosition } = store.ownRecords()
  copy.store.restoreOwn(records, nextPosition)
  copy.lifecycle.restore(snapshot, base)
  expect(copy.lifecycle.clock()).toEqual(clock)
  expect(copy.lifecycle.snapshot()).toEqual(snapshot)

  for (const state of [{ store, lifecycle }, copy]) {
    await state.store.change((orders) => orders.add(order('9')))
    state.lifecycle.schedule('9')
  }
  expect(copy.lifecycle.clock()).toEqual(lifecycle.clock())
  expect(copy.lifecycle.snapshot()).toEqual(lifecycle.snapshot())
  // Both ship the same orders at the same times.
  for (let step = 0; step < 8; step++) {
    await Promise.all([lifecycle.advance(10_000), copy.lifecycle.advance(10_000)])
    expect(copy.store.all()).toEqual(store.all())
  }
  expect(copy.lifecycle.clock()).toEqual(lifecycle.clock())
})

test('orders that fell due while no process ran ship at once on restore', async () => {
  const time = testTime(T0)
  const { store, lifecycle } = await stateOn(time)
  lifecycle.restart({ min: 30_000, max: 30_000 }, 1, base)
  await setStatus(store, lifecycle, '1', 'cancelled')
  const snapshot = lifecycle.snapshot()
  lifecycle.stop()

  // The server comes back two minutes later.
  const later = testTime(T0 + 120_000)
  const copy = await stateOn(later)
  copy.store.restoreOwn(store.ownRecords().records, store.ownRecords().nextPosition)
  copy.lifecycle.restore(snapshot, base)
  await later.advance(0)
  await settled(copy.store)
  expect(copy.store.all().map((record) => `${record.id}:${record.status}`)).toEqual([
    '1:cancelled',
    '2:shipped',
    '3:shipped',
    '4:shipped',
    '5:shipped',
    '6:shipped',
  ])
  expect(copy.lifecycle.clock().pending).toEqual([])
})

test('the revision moves on every change a snapshot keeps, and on nothing else', async () => {
  const time = testTime(T0)
  const { store, lifecycle } = await stateOn(time)
  const moves = (step: () => unknown) => {
    const before = lifecycle.revision()
    step()
    return lifecycle.revision() !== before
  }
  expect(moves(() => lifecycle.restart(null, 1, base))).toBe(true)
  // No rule: scheduling changes nothing.
  expect(moves(() => lifecycle.schedule('1'))).toBe(false)
  expect(moves(() => lifecycle.restart(rule, 1, base))).toBe(true)
  expect(moves(() => lifecycle.clock())).toBe(false)
  expect(moves(() => lifecycle.snapshot())).toBe(false)
  expect(moves(() => lifecycle.unschedule('99'))).toBe(false)
  expect(moves(() => lifecycle.unschedule('1'))).toBe(true)
  expect(moves(() => lifecycle.unschedule('1'))).toBe(false)
  expect(moves(() => lifecycle.schedule('1'))).toBe(true)
  expect(moves(() => lifecycle.advance(0))).toBe(false)
  expect(moves(() => lifecycle.advance(1))).toBe(true)
  const snapshot = lifecycle.snapshot()
  expect(moves(() => lifecycle.restore(snapshot, base))).toBe(true)
  await settled(store)
})

test('orders added and removed again leave nothing behind: the changes stay bounded', async () => {
  const time = testTime(T0)
  const { lifecycle } = await stateOn(time)
  lifecycle.restart(rule, 3, base)
  for (let index = 0; index < 1000; index++) {
    lifecycle.schedule(`${100 + index}`)
    lifecycle.unschedule(`${100 + index}`)
  }
  lifecycle.unschedule('1')
  lifecycle.schedule('1')
  lifecycle.unschedule('1')
  expect(lifecycle.snapshot().changes).toEqual([['1', null]])
})

test('the snapshot schema refuses what JSON from outside may hold', () => {
  const good: LifecycleSnapshot = {
    rule,
    seed: 7,
    startedAt: T0,
    advancedMs: 0,
    random: 12345,
    changes: [
      ['1', T0 + 1],
      ['2', null],
    ],
  }
  expect(v.safeParse(lifecycleSnapshotSchema, good).success).toBe(true)
  expect(v.safeParse(lifecycleSnapshotSchema, { ...good, rule: null, changes: [] }).success).toBe(true)
  const bad: unknown[] = [
    { ...good, rule: { min: 2, max: 1 } },
    { ...good, rule: { min: -1, max: 1 } },
    { ...good, rule: { min: 1, max: 1, shipAfter: 1 } },
    { ...good, seed: -1 },
    { ...good, seed: 1.5 },
    { ...good, startedAt: Number.NaN },
    { ...good, startedAt: 1e300 },
    { ...good, advancedMs: -1 },
    { ...good, random: 2 ** 32 },
    { ...good, random: -1 },
    { ...good, changes: [['01', null]] },
    { ...good, changes: [['1', null, 3]] },
    { ...good, changes: [['1', 'soon']] },
    {
      ...good,
      changes: [
        ['1', null],
        ['1', 5],
      ],
    },
    { ...good, changes: Array.from({ length: 200_001 }, (_, index) => [`${index}`, null]) },
    { ...good, extra: 1 },
    JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(good).slice(1)}`),
  ]
  for (const input of bad) expect(v.safeParse(lifecycleSnapshotSchema, input).success, JSON.stringify(input).slice(0, 80)).toBe(false)
})
