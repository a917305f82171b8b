import * as v from 'valibot'
import { expect, test } from 'vitest'
import { type ControlsSnapshot, createControls } from './controls.js'
import { controlsSnapshotSchema } from './controls-snapshot-schema.js'
import { MAX_FAULTS, parseFault } from './faults.js'

/** Controls with a bit of everything: latency, three faults (one of them counted down), a rate limit. */
function busyControls() {
  const controls = createControls(() => 0)
  controls.setLatency({ default: { min: 10, max: 20 }, cancelOrder: { min: 500, max: 500 } })
  controls.addFault(parseFault({ operation: 'listOrders', kind: 'status', status: 503, retryAfter: 2, times: 3 }))
  controls.addFault(parseFault({ operation: 'cancelOrder', kind: 'network', orderId: 9007199254740993n }))
  const gone = controls.addFault(parseFault({ operation: 'getPetById', kind: 'hang' }))
  controls.addFault(parseFault({ operation: 'cancelOrder', kind: 'malformed-json', orderId: 5, probability: 0.5 }))
  controls.removeFault(gone.id)
  controls.takeFault('listOrders', null)
  controls.setRateLimit({ limit: 2, windowSeconds: 60 })
  return controls
}

test('restored controls list the same latency, faults (ids, what remains) and rate limit, and give the next fault the next id', () => {
  const controls = busyControls()
  const snapshot = JSON.parse(JSON.stringify(controls.snapshot())) as ControlsSnapshot
  expect(v.parse(controlsSnapshotSchema, snapshot)).toEqual(snapshot)
  expect(snapshot.faults.map((fault) => [fault.id, fault.remaining, fault.orderId])).toEqual([
    [1, 2, undefined],
    [2, null, '9007199254740993'],
    [4, null, 5],
  ])
  expect(snapshot.nextFaultId).toBe(5)

  const copy = createControls(() => 0)
  copy.restore(snapshot)
  expect(copy.latency()).toEqual(controls.latency())
  expect(copy.rateLimit()).toEqual(controls.rateLimit())
  expect(copy.faults()).toEqual(
    JSON.parse(JSON.stringify(controls.faults(), (_key, value: unknown) => (typeof value === 'bigint' ? String(value) : value))),
  )
  expect(copy.snapshot()).toEqual(snapshot)
  // The fault scoped to a big order id still fires for that order only.
  expect(copy.takeFault('cancelOrder', '9007199254740992')).toBeUndefined()
  expect(copy.takeFault('cancelOrder', '9007199254740993')?.id).toBe(2)
  expect(copy.addFault(parseFault({ operation: 'getPetById', kind: 'network' })).id).toBe(5)
  // The counted fault has two left, and the rate-limit windows start afresh.
  expect([copy.takeFault('listOrders', null)?.remaining, copy.takeFault('listOrders', null)?.remaining]).toEqual([1, 0])
  expect(copy.takeFault('listOrders', null)).toBeUndefined()
  expect(copy.consume('key', true)?.['RateLimit-Remaining']).toBe('1')
})

test('the revision moves on every change a snapshot keeps, and not on reads or requests that change nothing', () => {
  const controls = createControls(() => 0)
  const moves = (step: () => unknown) => {
    const before = controls.revision()
    step()
    return controls.revision() !== before
  }
  expect(moves(() => controls.setLatency({ default: { min: 1, max: 1 } }))).toBe(true)
  expect(moves(() => controls.setRateLimit({ limit: 1, windowSeconds: 1 }))).toBe(true)
  expect(moves(() => controls.addFault(parseFault({ operation: 'listOrders', kind: 'network' })))).toBe(true)
  expect(moves(() => controls.addFault(parseFault({ operation: 'getPetById', kind: 'network', times: 2 })))).toBe(true)
  expect(
    moves(() => [controls.latency(), controls.faults(), controls.rateLimit(), controls.snapshot(), controls.delayFor('getPetById')]),
  ).toBe(false)
  expect(moves(() => controls.consume('key', true))).toBe(false)
  // A fault with no times fires and stays as it was; one with times counts down.
  expect(moves(() => controls.takeFault('listOrders', null))).toBe(false)
  expect(moves(() => controls.takeFault('cancelOrder', null))).toBe(false)
  expect(moves(() => controls.takeFault('getPetById', null))).toBe(true)
  expect(moves(() => controls.removeFault(99))).toBe(false)
  expect(moves(() => controls.removeFault(1))).toBe(true)
  expect(moves(() => controls.clearFaults())).toBe(true)
  expect(moves(() => controls.clearFaults())).toBe(false)
  const snapshot = controls.snapshot()
  expect(moves(() => controls.restore(snapshot))).toBe(true)
})

test('a restore that does not fit changes nothing', () => {
  const controls = busyControls()
  const before = controls.snapshot()
  const good = busyControls().snapshot()
  const misfits: ControlsSnapshot[] = [
    { ...good, nextFaultId: 2 },
    { ...good, faults: [...good.faults, { ...(good.faults[0] as ControlsSnapshot['faults'][number]) }] },
    { ...good, latency: { default: { min: 5, max: 1 } } },
    { ...good, rateLimit: { limit: 0, windowSeconds: 1 } },
  ]
  for (const misfit of misfits) {
    expect(() => controls.restore(misfit)).toThrow()
    expect(controls.snapshot()).toEqual(before)
  }
})

test('the snapshot schema refuses what JSON from outside may hold', () => {
  const good = JSON.parse(JSON.stringify(busyControls().snapshot())) as ControlsSnapshot
  const fault = good.faults[0] as ControlsSnapshot['faults'][number]
  const many = Array.from({ length: MAX_FAULTS + 1 }, (_, index) => ({
    operation: 'listOrders',
    kind: 'network',
    id: index + 1,
    remaining: null,
  }))
  const bad: unknown[] = [
    { ...good, extra: 1 },
    { ...good, latency: { default: { min: 1, max: 60_001 } } },
    { ...good, latency: { default: { min: 2, max: 1 } } },
    { ...good, latency: { deleteEverything: { min: 1, max: 1 } } },
    { ...good, latency: { min: 1, max: 1 } },
    { ...good, latency: JSON.parse('{"__proto__":{"min":1,"max":1}}') },
    { ...good, rateLimit: '100/60s' },
    { ...good, rateLimit: { limit: 1e300, windowSeconds: 1 } },
    { ...good, rateLimit: { limit: 1, windowSeconds: 1, burst: 2 } },
    { ...good, nextFaultId: 0 },
    { ...good, nextFaultId: fault.id },
    { ...good, faults: [fault, fault] },
    { ...good, faults: many, nextFaultId: MAX_FAULTS + 2 },
    { ...good, faults: [{ ...fault, id: 0 }] },
    { ...good, faults: [{ ...fault, remaining: 0 }] },
    { ...good, faults: [{ ...fault, remaining: 4 }] },
    { ...good, faults: [{ ...fault, remaining: null }] },
    { ...good, faults: [{ ...fault, operation: 'dropTables' }] },
    { ...good, faults: [{ ...fault, status: 418 }] },
    { ...good, faults: [{ ...fault, kind: 'network' }] },
    { ...good, faults: [{ ...fault, orderId: '007' }] },
    { ...good, faults: [{ ...fault, operation: 'cancelOrder', orderId: '9223372036854775808' }] },
    { ...good, faults: [{ ...fault, retryAfter: 1e300 }] },
    { ...good, faults: [{ ...fault, probability: 0.5 }] },
    { ...good, faults: [JSON.parse(`{"__proto__":{"polluted":true},${JSON.stringify(fault).slice(1)}`)] },
  ]
  for (const input of bad) expect(v.safeParse(controlsSnapshotSchema, input).success, JSON.stringify(input).slice(0, 200)).toBe(false)
  expect(v.safeParse(controlsSnapshotSchema, { latency: null, faults: [], nextFaultId: 1, rateLimit: null }).success).toBe(true)
})
