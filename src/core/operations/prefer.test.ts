import { expect, test } from 'vitest'
import { ApiError } from '../api-error.js'
import { preferredStatus } from './prefer.js'

test('reads code= from Prefer, in any of its spellings', () => {
  expect(preferredStatus(null, 'cancelOrder')).toBeUndefined()
  expect(preferredStatus('respond-async', 'cancelOrder')).toBeUndefined()
  expect(preferredStatus('code=409', 'cancelOrder')).toBe(409)
  expect(preferredStatus('wait=1, Code = "404"', 'cancelOrder')).toBe(404)
  expect(preferredStatus('example=x; code=401', 'listOrders')).toBe(401)
})

test('a status the OpenAPI document does not list for the operation is a 400 naming the ones it does', () => {
  const refuse = () => preferredStatus('code=409', 'listOrders')
  expect(refuse).toThrow(ApiError)
  expect(refuse).toThrow('the documented ones are 200, 401')
  expect(() => preferredStatus('code=418', 'getPetById')).toThrow('Prefer: code=418 is not a documented response of getPetById')
})
