import { expect, test } from 'vitest'
import type { InteractionFacts } from './build-pact.js'
import { createInteractionLedger, MAX_LEDGER_BYTES, MAX_LEDGER_INTERACTIONS } from './interaction-ledger.js'

const facts = (path: string, message: string | null = null): InteractionFacts => ({
  method: 'DELETE',
  path,
  status: 404,
  operation: 'cancelOrder',
  orderId: '1',
  given: 'absent',
  authorization: 'Bearer k',
  code: 'order_not_found',
  message,
})

test('keeps each interaction once, oldest first', () => {
  const ledger = createInteractionLedger()
  for (const path of ['/v1/store/orders/1', '/v1/store/orders/2', '/v1/store/orders/1']) ledger.keep(facts(path))
  expect(ledger.facts().map((kept) => kept.path)).toEqual(['/v1/store/orders/1', '/v1/store/orders/2'])
  expect(ledger.leftOut()).toBe(0)
})

test('past its count it keeps no more, and counts the requests it left out', () => {
  const ledger = createInteractionLedger()
  for (let id = 0; id < MAX_LEDGER_INTERACTIONS + 5; id++) ledger.keep(facts(`/v1/store/orders/${id}`))
  expect(ledger.facts()).toHaveLength(MAX_LEDGER_INTERACTIONS)
  expect(ledger.leftOut()).toBe(5)
})

test('past its bytes it keeps no more, whatever the count', () => {
  const ledger = createInteractionLedger()
  for (let id = 0; id < 200; id++) ledger.keep(facts(`/v1/store/orders/${id}`, 'm'.repeat(4000)))
  expect(ledger.facts().length).toBeLessThanOrEqual(MAX_LEDGER_BYTES / 4000)
  expect(ledger.leftOut()).toBeGreaterThan(0)
})
