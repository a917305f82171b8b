import { expect, test } from 'vitest'
import { pathText, readApiPath } from './api-path.js'

test('a path under the base reads as its decoded segments, one trailing slash tolerated', () => {
  expect(readApiPath('/v1/store/orders', '/v1')).toEqual({ segments: ['store', 'orders'], trailingSlash: false, problem: undefined })
  expect(readApiPath('/v1/store/%6Frders/', '/v1')).toEqual({ segments: ['store', 'orders'], trailingSlash: true, problem: undefined })
  expect(readApiPath('/v1', '/v1')).toEqual({ segments: [], trailingSlash: false, problem: undefined })
  expect(readApiPath('/v1/', '/v1')).toEqual({ segments: [], trailingSlash: true, problem: undefined })
  expect(readApiPath('/store/orders', '')?.segments).toEqual(['store', 'orders'])
})

test('the base compares with case, as the operations do; a longer first segment is not under it', () => {
  for (const path of ['/V1/store/orders', '/v10/store', '/v', '/'] as const) expect(readApiPath(path, '/v1'), path).toBeNull()
})

test('every spelling a server behind could read as another path has a problem', () => {
  const hazards = [
    '/v1//store/orders',
    '/v1/store/orders//',
    '/v1/store/orders;x=1',
    '/v1/..%2f..%2fx',
    '/v1/a%2Fb',
    '/v1/a%5cb',
    '/v1/%2e%2e/x',
    '/v1/a%2Eb',
    '/v1/./x',
    '/v1/x/..',
    '/v1/a\\b',
    '/v1/a\tb',
    '/v1/a%09b',
    '/v1/a%00b',
    '/v1/a%7Fb',
    '/v1/a\u007fb',
    '/v1/a%zzb',
  ]
  for (const path of hazards) expect(readApiPath(path, '/v1')?.problem, path).toBeTypeOf('string')
  for (const path of ['/v1/a%20b', '/v1/caf%C3%A9', '/v1/a:b@c', '/v1/a-b_c~d.e', '/v1/%7Bx%7D'])
    expect(readApiPath(path, '/v1')?.problem, path).toBeUndefined()
})

test('a path is sent on as it matched: decoded where it reads the same, escaped where it must be', () => {
  const text = (path: string) => pathText(readApiPath(path, '/v1') as NonNullable<ReturnType<typeof readApiPath>>)
  expect(text('/v1/store/%69nventory')).toBe('/store/inventory')
  expect(text('/v1/a%20b/c:d@e!/')).toBe('/a%20b/c:d@e!/')
  expect(text('/v1/caf%C3%A9')).toBe('/caf%C3%A9')
  expect(text('/v1/x%3Fy%23z')).toBe('/x%3Fy%23z')
  expect(text('/v1')).toBe('')
  expect(text('/v1/')).toBe('/')
})
