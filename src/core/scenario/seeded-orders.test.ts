import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { generateOrders } from './generate-orders.js'
import { parseScenario } from './parse-scenario.js'
import { seededOrderTable } from './seeded-order-table.js'
import { seededOrders } from './seeded-orders.js'

test('seeded-orders.json holds what faker makes for every generating built-in scenario (else: npm run build && npm run build:seeded-orders)', () => {
  expect(readFileSync(new URL('./seeded-orders.json', import.meta.url), 'utf8')).toBe(seededOrderTable())
})

test('the table stands in for faker only for the very generator, seed and first id it was made with', () => {
  const { generate } = parseScenario(
    { name: 'mine', generate: { count: { min: 12, max: 25 }, seed: 20260101, statuses: { shipped: 2, pending: 3 } } },
    'mine',
  )
  if (generate === undefined) throw new Error('the scenario generates')
  // Another scenario with the default's generator (its statuses in another order) gets the same orders, made ahead.
  expect(seededOrders(generate, 20260101, 1n)).toEqual(generateOrders(generate, 20260101, 1n, 'mine'))
  expect(seededOrders(generate, 7, 1n)).toBeUndefined()
  expect(seededOrders(generate, 20260101, 2n)).toBeUndefined()
  expect(seededOrders({ ...generate, count: 21 }, 20260101, 1n)).toBeUndefined()
  expect(seededOrders({ ...generate, referenceDate: '2026-01-01T00:00:00.000Z' }, 20260101, 1n)).toBeUndefined()
})
