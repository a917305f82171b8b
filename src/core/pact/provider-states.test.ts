import { expect, test } from 'vitest'
import { parseProviderState } from './parse-provider-state.js'
import { providerStateOf } from './provider-states.js'

test('a request names the state its answer depended on', () => {
  expect(providerStateOf(204, '1', 'pending')).toEqual({ name: 'order 1 is pending', params: { id: 1 } })
  expect(providerStateOf(404, '9', 'absent')).toEqual({ name: 'order 9 does not exist', params: { id: 9 } })
  expect(providerStateOf(409, '9223372036854775807', 'shipped')).toEqual({
    name: 'order 9223372036854775807 is shipped',
    params: { id: 9223372036854775807n },
  })
  expect(providerStateOf(401, '1', 'pending')).toEqual({ name: 'the key is not accepted' })
  expect(providerStateOf(200, null, 'status-exposed')).toBeUndefined()
  expect(providerStateOf(400, null, null)).toBeUndefined()
})

test('each state name reads back as what it asks for', () => {
  expect(parseProviderState('order 1 is pending', { id: 1 })).toEqual({ kind: 'order', id: '1', status: 'pending' })
  expect(parseProviderState('order -3 is cancelled', undefined)).toEqual({ kind: 'order', id: '-3', status: 'cancelled' })
  expect(parseProviderState('order 9 does not exist', { id: '9' })).toEqual({ kind: 'order', id: '9', status: 'absent' })
  expect(parseProviderState('the key is not accepted', {})).toEqual({ kind: 'keys-refused' })
})

test('an unknown state lists the known ones; params.id must agree with the name', () => {
  expect(() => parseProviderState('order 1 is lost', {})).toThrow(/the known ones are: order \{id\} is pending/)
  expect(() => parseProviderState('order 99999999999999999999 is pending', {})).toThrow(/Unknown provider state/)
  expect(() => parseProviderState(7, {})).toThrow(/"state" must be the name of a provider state/)
  expect(() => parseProviderState('order 1 is pending', { id: 2 })).toThrow(/params\.id/)
})
