import { expect, test } from 'vitest'
import { orderSchemaProblem } from './order-shape.js'

test('accepts orders with any of the documented fields, int64 ids and undocumented extras such as status', () => {
  expect(
    orderSchemaProblem([
      { id: 9223372036854775807n, petId: 1, quantity: -2, shipDate: '2026-01-01T00:00:00Z', complete: false, status: 'pending' },
      {},
    ]),
  ).toBeNull()
})

test('names the first item and field that break the OpenAPI Order schema', () => {
  expect(orderSchemaProblem([{ id: 1 }, { id: 1.5 }])).toBe('item 1: id must be int64, got "1.5"')
  expect(orderSchemaProblem([{ id: 9223372036854775808n }])).toMatch(/^item 0: id must be int64/)
  expect(orderSchemaProblem([{ shipDate: 'tomorrow' }])).toBe('item 0: shipDate must be date-time, got "tomorrow"')
  expect(orderSchemaProblem([{ complete: 'yes' }])).toBe('item 0: complete must be boolean, got "yes"')
  expect(orderSchemaProblem(['x'])).toBe('item 0: not an object')
})
