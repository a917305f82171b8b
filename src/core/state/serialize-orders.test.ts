import { expect, test } from 'vitest'
import type { OrderRecord } from './order-store.js'
import { serializeOrders } from './serialize-orders.js'

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const order = (id: number, overrides: Partial<OrderRecord> = {}): OrderRecord => ({
  id: String(id),
  petId: String(id + 100),
  quantity: 1,
  shipDate: '2026-12-01T09:00:00.000Z',
  complete: false,
  status: 'pending',
  ...overrides,
})

test('an empty list is []', () => {
  expect(text(serializeOrders([], false))).toBe('[]')
})

test('writes what JSON.stringify would, int64 ids with every digit, absent fields left out', () => {
  const records = [
    order(1),
    order(2, { petId: null, quantity: null, shipDate: null, complete: null, status: 'shipped' }),
    order(3, { id: '9223372036854775807', petId: '9223372036854775806' }),
  ]
  expect(text(serializeOrders(records, true))).toBe(
    '[{"id":1,"petId":101,"quantity":1,"shipDate":"2026-12-01T09:00:00.000Z","complete":false,"status":"pending"},' +
      '{"id":2,"status":"shipped"},' +
      '{"id":9223372036854775807,"petId":9223372036854775806,"quantity":1,"shipDate":"2026-12-01T09:00:00.000Z","complete":false,"status":"pending"}]',
  )
  expect(JSON.parse(text(serializeOrders(records.slice(0, 2), false)))).toEqual([
    { id: 1, petId: 101, quantity: 1, shipDate: '2026-12-01T09:00:00.000Z', complete: false },
    { id: 2 },
  ])
})

test('a long list, with text past its first guess of the size, comes out whole and exactly as long as its text', () => {
  const records = Array.from({ length: 1_000 }, (_, index) => order(index + 1, { shipDate: `é${'x'.repeat(300)}\u2028"` }))
  const bytes = serializeOrders(records, true)
  const parsed = JSON.parse(text(bytes)) as { id: number; shipDate: string }[]
  expect(parsed).toHaveLength(1_000)
  expect(parsed[999]).toMatchObject({ id: 1_000, shipDate: `é${'x'.repeat(300)}\u2028"` })
  expect(bytes.byteLength).toBe(new TextEncoder().encode(text(bytes)).byteLength)
  expect(bytes.buffer.byteLength).toBe(bytes.byteLength)
})
