import { expect, test } from 'vitest'
import { ValidationError } from '../validation-error.js'
import { routablePath } from '../dispatch/dispatcher.js'
import { OPERATION_TABLE, operationAt } from '../routes/route-table.js'
import { apiPathOf, checkBasePath, isUnderBase, parseApiBase, type ApiBase, type RouteUrl } from './routing.js'

const base = parseApiBase('/v1')
/** The operation a URL's path is, by the one table (route-table.ts), with its method. */
const matchRoute = (url: RouteUrl, on: ApiBase) => {
  const path = apiPathOf(url, on)
  const operation = path === null ? undefined : operationAt(path.segments)
  const found = path === null || operation === undefined ? null : OPERATION_TABLE.match(operation.method, path.segments)
  return found !== null && 'operation' in found ? found : null
}
const match = (path: string, on = base) => {
  const found = matchRoute(new URL(path, 'https://api.petstore.example'), on)
  return found === null ? null : { operation: found.operation.id, param: found.param }
}
const shadowsOperation = (url: RouteUrl, on: ApiBase) => routablePath(url, on) === null

test('each path of the registry finds its operation, at its method', () => {
  expect(match('/v1/store/orders')).toEqual({ operation: 'listOrders', param: '' })
  expect(match('/v1/store/orders/')).toEqual({ operation: 'listOrders', param: '' })
  expect(match('/v1/store/orders/42')).toEqual({ operation: 'cancelOrder', param: '42' })
  expect(match('/v1/pets/a%20b')).toEqual({ operation: 'getPetById', param: 'a b' })
  expect(match('/v1/pets/%zz')).toEqual({ operation: 'getPetById', param: '%zz' })
  // One path rule (api-path.ts): literals compare decoded, as the parameter is read.
  expect(match('/v1/store/%6Frders')).toEqual({ operation: 'listOrders', param: '' })
})

test('other paths find none: case, depth, an empty parameter, another base', () => {
  for (const path of ['/v1/Store/orders', '/v1/store/orders/1/2', '/v1/store/orders//', '/v1/pets/', '/v2/store/orders', '/v1']) {
    expect(match(path), path).toBeNull()
  }
})

test('the base or an operation path in another case shadows the operation: never routed or forwarded', () => {
  const url = (path: string) => new URL(path, 'https://api.petstore.example')
  for (const path of ['/V1/anything', '/v1/STORE/orders', '/v1/Store/Orders/7', '/v1/PETS/rex'])
    expect(shadowsOperation(url(path), base), path).toBe(true)
  for (const path of ['/v1/store/orders', '/v1/store/inventory', '/v1/STORE/inventory', '/v1/store/orders/7/items'])
    expect(shadowsOperation(url(path), base), path).toBe(false)
})

test('a pinned base matches its origin only; isUnderBase ignores case in the prefix', () => {
  const pinned = parseApiBase('https://api.petstore.example/v1/')
  expect(pinned).toEqual({ origin: 'https://api.petstore.example', path: '/v1' })
  expect(match('/v1/store/orders', pinned)?.operation).toBe('listOrders')
  expect(matchRoute(new URL('https://staging.example/v1/store/orders'), pinned)).toBeNull()
  expect(isUnderBase(new URL('https://x.example/V1/anything'), base)).toBe(true)
  expect(isUnderBase(new URL('https://x.example/v10'), base)).toBe(false)
})

test('a base that is no path or http(s) URL is a ValidationError naming the option', () => {
  expect(() => parseApiBase('ftp://x/v1')).toThrow(ValidationError)
  expect(() => parseApiBase('https://x/v1?q')).toThrow('no query or fragment')
  expect(() => checkBasePath('v1')).toThrow(expect.objectContaining({ field: 'basePath' }))
  expect(checkBasePath()).toBe('/v1')
})
