import { expect, test } from 'vitest'
import { buildPact, type InteractionFacts } from './build-pact.js'

const names = { consumer: 'web', provider: 'orders' }
const facts = (overrides: Partial<InteractionFacts>): InteractionFacts => ({
  method: 'GET',
  path: '/v1/store/orders',
  status: 200,
  operation: 'listOrders',
  orderId: null,
  given: null,
  authorization: 'Bearer k',
  code: null,
  message: null,
  ...overrides,
})

test('the path is under the base, and a query is kept as Pact writes one', () => {
  const [interaction] = buildPact([facts({ path: '/v1/store/orders?a=1&a=2&b=' })], names, '/v1').interactions
  expect(interaction?.request).toEqual({
    method: 'GET',
    path: '/store/orders',
    query: { a: ['1', '2'], b: [''] },
    headers: { Authorization: ['Bearer k'] },
  })
})

test('a list that sent each status shows it, held by type', () => {
  const [interaction] = buildPact([facts({ given: 'status-exposed' })], names, '/v1').interactions
  expect(interaction?.response.body?.content).toEqual([expect.objectContaining({ status: 'pending' })])
  expect(interaction?.response.matchingRules?.['body']?.['$[*].status']).toEqual({ combine: 'AND', matchers: [{ match: 'type' }] })
})

test('only the orders operations are in it', () => {
  const pets = facts({ path: '/v1/pets/1', operation: 'getPetById' })
  expect(buildPact([pets], names, '/v1').interactions).toEqual([])
})
