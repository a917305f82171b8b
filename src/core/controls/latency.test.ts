import { expect, test } from 'vitest'
import { ValidationError } from '../validation-error.js'
import { drawDelay, parseLatencySettings } from './latency.js'

test('one value applies to every operation: a number, a string, a range', () => {
  expect(parseLatencySettings(50)).toEqual({ default: { min: 50, max: 50 } })
  expect(parseLatencySettings(' 50-400 ')).toEqual({ default: { min: 50, max: 400 } })
  expect(parseLatencySettings({ min: 1, max: 2 })).toEqual({ default: { min: 1, max: 2 } })
})

test('per operation, by the ids of the registry', () => {
  expect(parseLatencySettings({ default: 5, cancelOrder: '100-200' })).toEqual({
    default: { min: 5, max: 5 },
    cancelOrder: { min: 100, max: 200 },
  })
  expect(() => parseLatencySettings({ deleteOrder: 5 })).toThrow(
    'Unknown latency key "deleteOrder"; use default, listOrders, cancelOrder, getPetById.',
  )
})

test('bad values are a ValidationError naming the field', () => {
  for (const input of [-1, 1.5, '400-50', 60_001, 'slow', null, [1]]) {
    expect(() => parseLatencySettings(input), JSON.stringify(input)).toThrow(ValidationError)
  }
  expect(() => parseLatencySettings({ listOrders: 'x' })).toThrow(expect.objectContaining({ field: 'latency.listOrders' }))
})

test("a delay is drawn within its range, the operation's own before the default", () => {
  const ranges = { default: { min: 10, max: 20 }, listOrders: { min: 0, max: 0 } }
  expect(drawDelay(ranges, 'listOrders', () => 0.5)).toBe(0)
  expect(drawDelay(ranges, 'cancelOrder', () => 0)).toBe(10)
  expect(drawDelay(ranges, 'cancelOrder', () => 0.999)).toBe(20)
  expect(drawDelay({}, 'getPetById', () => 0.5)).toBe(0)
})
