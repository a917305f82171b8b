import { expect, test } from 'vitest'
import { createFaultList, faultError, MAX_FAULTS, parseFault } from './faults.js'

test('a fault names an operation of the registry and a kind; the rest is checked by field', () => {
  expect(parseFault({ operation: 'cancelOrder', kind: 'status', status: 503, retryAfter: 2, times: 1 })).toEqual({
    operation: 'cancelOrder',
    kind: 'status',
    status: 503,
    retryAfter: 2,
    times: 1,
  })
  const refusals: [unknown, string][] = [
    [[], 'fault'],
    [{ operation: 'deleteOrder', kind: 'status' }, 'operation'],
    [{ operation: 'listOrders', kind: 'explode' }, 'kind'],
    [{ operation: 'listOrders', kind: 'network', colour: 'red' }, 'colour'],
    [{ operation: 'listOrders', kind: 'network', orderId: 1 }, 'orderId'],
    [{ operation: 'cancelOrder', kind: 'network', orderId: '1.5' }, 'orderId'],
    [{ operation: 'listOrders', kind: 'network', status: 500 }, 'status'],
    [{ operation: 'listOrders', kind: 'hang', durationMs: 600_001 }, 'durationMs'],
    [{ operation: 'listOrders', kind: 'network', times: 1, probability: 0.5 }, 'times'],
    [{ operation: 'listOrders', kind: 'network', probability: 2 }, 'probability'],
  ]
  for (const [input, field] of refusals) expect(() => parseFault(input), JSON.stringify(input)).toThrow(expect.objectContaining({ field }))
})

test('an order id is kept canonical, so that "007" matches the request for order 7', () => {
  expect(parseFault({ operation: 'cancelOrder', kind: 'network', orderId: '007' }).orderId).toBe('7')
  const faults = createFaultList()
  faults.add(parseFault({ operation: 'cancelOrder', kind: 'network', orderId: '007' }))
  expect(faults.take('cancelOrder', '8', Math.random)).toBeUndefined()
  expect(faults.take('cancelOrder', '7', Math.random)?.kind).toBe('network')
})

test('times counts down and the fault goes; probability draws', () => {
  const faults = createFaultList()
  faults.add({ operation: 'listOrders', kind: 'network', times: 2 })
  faults.add({ operation: 'getPetById', kind: 'network', probability: 0.5 })
  expect(faults.take('listOrders', null, Math.random)?.remaining).toBe(1)
  expect(faults.take('listOrders', null, Math.random)?.remaining).toBe(0)
  expect(faults.take('listOrders', null, Math.random)).toBeUndefined()
  expect(faults.take('getPetById', null, () => 0.7)).toBeUndefined()
  expect(faults.take('getPetById', null, () => 0.2)).toBeDefined()
  expect(faults.list()).toHaveLength(1)
})

test('at most MAX_FAULTS at once', () => {
  const faults = createFaultList()
  for (let index = 0; index < MAX_FAULTS; index++) faults.add({ operation: 'listOrders', kind: 'network' })
  expect(() => faults.add({ operation: 'listOrders', kind: 'network' })).toThrow(`At most ${MAX_FAULTS} faults`)
})

test('a status fault is an Error of its status; 503 carries Retry-After', () => {
  const error = faultError({ id: 3, operation: 'cancelOrder', kind: 'status', status: 503, retryAfter: 4, remaining: null })
  expect(error.body).toEqual({
    code: 'service_unavailable',
    message: 'Injected fault #3: cancelOrder answers 503 on purpose.',
    status: 503,
  })
  expect(error.headers).toEqual({ 'Retry-After': '4' })
  expect(faultError({ id: 1, operation: 'listOrders', kind: 'status', remaining: null }).status).toBe(500)
})
