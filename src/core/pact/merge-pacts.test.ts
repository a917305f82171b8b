import { expect, test } from 'vitest'
import { buildPact, type InteractionFacts } from './build-pact.js'
import { mergePacts } from './merge-pacts.js'

const cancel = (id: string, status: number, given: InteractionFacts['given'], authorization = 'Bearer k'): InteractionFacts => ({
  method: 'DELETE',
  path: `/v1/store/orders/${id}`,
  status,
  operation: 'cancelOrder',
  orderId: id,
  given,
  authorization,
  code: status === 204 ? null : status === 401 ? 'unauthorized' : 'order_already_shipped',
  message: status === 204 ? null : 'Refused.',
})
const pactOf = (...facts: InteractionFacts[]) => buildPact(facts, { consumer: 'web', provider: 'orders' }, '/v1')

test('every distinct interaction once, sorted by description, whatever the order of the pacts', () => {
  const a = pactOf(cancel('2', 204, 'pending'), cancel('1', 409, 'shipped'))
  const b = pactOf(cancel('1', 409, 'shipped'), cancel('1', 204, 'pending'))
  const merged = mergePacts([a, b])
  expect(mergePacts([b, a])).toEqual(merged)
  expect(merged.interactions.map((interaction) => interaction.description)).toEqual([
    'DELETE /store/orders/1 given order 1 is pending: 204',
    'DELETE /store/orders/1 given order 1 is shipped: 409 order_already_shipped',
    'DELETE /store/orders/2 given order 2 is pending: 204',
  ])
  expect(merged.consumer).toEqual({ name: 'web' })
})

test('interactions that read alike but differ are numbered afresh', () => {
  const a = pactOf(cancel('1', 401, 'pending', 'Bearer x'))
  const b = pactOf(cancel('1', 401, 'pending', 'Bearer y'), cancel('1', 401, 'pending', 'Bearer x'))
  expect(mergePacts([b, a]).interactions.map((interaction) => [interaction.description, interaction.request.headers])).toEqual([
    ['DELETE /store/orders/1 given the key is not accepted: 401 unauthorized', { Authorization: ['Bearer x'] }],
    ['DELETE /store/orders/1 given the key is not accepted: 401 unauthorized (2)', { Authorization: ['Bearer y'] }],
  ])
})
