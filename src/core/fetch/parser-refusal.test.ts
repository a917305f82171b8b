import { METHODS, STATUS_CODES } from 'node:http'
import { expect, test } from 'vitest'
import { parserRefusal } from './parser-refusal.js'
import { statusText } from './status-text.js'

test('every method Node’s HTTP parser reads passes, and no other', () => {
  for (const method of METHODS) expect(parserRefusal(method, '/v1/store/orders', new Headers()), method).toBeNull()
  for (const method of ['FOO', 'patch', 'Get', 'PRI'])
    expect(parserRefusal(method, '/v1/store/orders', new Headers())?.status, method).toBe(400)
})

test('a header section past 64 KiB is refused with 431', () => {
  expect(parserRefusal('GET', '/', new Headers({ 'X-Big': 'y'.repeat(60_000) }))).toBeNull()
  expect(parserRefusal('GET', '/', new Headers({ 'X-Big': 'y'.repeat(70_000) }))?.code).toBe('headers_too_large')
})

test('the status texts are the ones Node’s server sends', () => {
  for (const status of [200, 204, 400, 401, 404, 405, 409, 413, 429, 431, 500, 502, 503, 504])
    expect(statusText(status)).toBe(STATUS_CODES[status])
  expect(statusText(299)).toBe('')
})
