import * as v from 'valibot'
import { expect, test } from 'vitest'
import { type CoverageSnapshot, createCoverageCounter } from './coverage-counter.js'
import { coverageSnapshotSchema } from './coverage-snapshot-schema.js'
import { journalRecord } from '../../../test/support/journal-record.js'

const SUNSET = new Date('2027-01-01T00:00:00Z')

const record = journalRecord

/** A counter that saw a bit of everything: outcomes, an empty list, provoked answers, a slow one, deprecated calls. */
function busyCounter() {
  const counter = createCoverageCounter()
  const records = [
    record({ operation: 'listOrders', status: 200 }),
    record({ operation: 'listOrders', status: 200 }),
    record({ operation: 'listOrders', status: 200, body: 'empty list', delayed: true }),
    record({ operation: 'cancelOrder', status: 409, code: 'order_already_shipped' }),
    record({ operation: 'cancelOrder', status: 503, code: 'service_unavailable', answeredBy: 'fault', fault: 'status' }),
    record({ operation: 'cancelOrder', status: 0, answeredBy: 'fault', fault: 'network' }),
    record({ operation: 'listOrders', status: 429, code: 'rate_limited', answeredBy: 'rate-limit' }),
    record({ operation: 'listOrders', status: 200, delayed: true, aborted: true }),
    record({ operation: 'getPetById', status: 200 }),
    record({ operation: 'getPetById', status: 404, code: 'pet_not_found' }),
  ]
  for (const entry of records) counter.count(entry)
  return counter
}

test('restored counts report the same coverage, and keep counting from there', () => {
  const counter = busyCounter()
  const snapshot = JSON.parse(JSON.stringify(counter.snapshot())) as CoverageSnapshot
  expect(v.parse(coverageSnapshotSchema, snapshot)).toEqual(snapshot)
  // Only counts above 0 are written.
  expect(snapshot.outcomes).toEqual({
    'listOrders.200': 2,
    'listOrders.200.empty': 1,
    'cancelOrder.409.order_already_shipped': 1,
    'getPetById.200': 1,
    'getPetById.404.pet_not_found': 1,
  })
  expect(snapshot.deprecatedCalls).toEqual({ getPetById: 2 })
  expect(snapshot.provoked.length).toBeGreaterThan(3)

  const copy = createCoverageCounter()
  copy.count(record({ operation: 'cancelOrder', status: 204 }))
  const before = copy.revision()
  copy.restore(v.parse(coverageSnapshotSchema, snapshot))
  expect(copy.revision()).toBeGreaterThan(before)
  expect(copy.report(SUNSET)).toEqual(counter.report(SUNSET))
  for (const each of [counter, copy]) each.count(record({ operation: 'listOrders', status: 200, delayed: true }))
  expect(copy.report(SUNSET)).toEqual(counter.report(SUNSET))
  expect(createCoverageCounter().snapshot()).toEqual({ outcomes: {}, provoked: [], deprecatedCalls: {} })
})

test('a restore naming what the service does not document changes nothing', () => {
  const counter = busyCounter()
  const before = counter.report(SUNSET)
  const snapshot = counter.snapshot()
  expect(() => counter.restore({ ...snapshot, outcomes: { 'listOrders.418': 1 } })).toThrow(RangeError)
  expect(() => counter.restore({ ...snapshot, deprecatedCalls: { listOrders: 1 } })).toThrow(RangeError)
  expect(counter.report(SUNSET)).toEqual(before)
})

test('the snapshot schema refuses what JSON from outside may hold', () => {
  const good = JSON.parse(JSON.stringify(busyCounter().snapshot())) as CoverageSnapshot
  const provoked = good.provoked[0] as CoverageSnapshot['provoked'][number]
  const bad: unknown[] = [
    { ...good, extra: 1 },
    { ...good, outcomes: { 'listOrders.418': 1 } },
    { ...good, outcomes: { 'listOrders.200': 0 } },
    { ...good, outcomes: { 'listOrders.200': -1 } },
    { ...good, outcomes: { 'listOrders.200': 1.5 } },
    { ...good, outcomes: { 'listOrders.200': 2 ** 60 } },
    { ...good, outcomes: JSON.parse('{"__proto__":{"listOrders.200":1}}') },
    { ...good, outcomes: JSON.parse('{"constructor":1}') },
    { ...good, deprecatedCalls: { listOrders: 1 } },
    { ...good, deprecatedCalls: JSON.parse('{"__proto__":1}') },
    { ...good, provoked: [provoked, provoked] },
    { ...good, provoked: [{ ...provoked, id: 'cancelOrder.204' }] },
    { ...good, provoked: [{ ...provoked, operation: 'dropTables' }] },
    { ...good, provoked: [{ ...provoked, control: 'chaos' }] },
    { ...good, provoked: [{ ...provoked, code: 'Has Spaces\n' }] },
    { ...good, provoked: [{ ...provoked, status: 600 }] },
    { ...good, provoked: [{ ...provoked, count: 0 }] },
    { ...good, provoked: [{ ...provoked, extra: true }] },
    { ...good, provoked: Array.from({ length: 1001 }, (_, index) => ({ ...provoked, status: index % 600 })) },
  ]
  for (const input of bad) expect(v.safeParse(coverageSnapshotSchema, input).success, JSON.stringify(input).slice(0, 200)).toBe(false)
  expect(({} as Record<string, unknown>)['listOrders.200']).toBeUndefined()
})
