import { expect, test } from 'vitest'
import { createAdminOriginCheck } from './admin-origin.js'

const check = createAdminOriginCheck(['https://qa.example.test'])
const host = '127.0.0.1:4010'

test('clients that are no web page pass: no Origin, no cross-site fetch metadata', () => {
  expect(check({ origin: undefined, secFetchSite: undefined, host })).toBeNull()
  expect(check({ origin: undefined, secFetchSite: 'same-origin', host })).toBeNull()
  expect(check({ origin: undefined, secFetchSite: 'none', host })).toBeNull()
})

test("pages on a loopback origin at any port, the server's own pages and listed origins pass", () => {
  expect(check({ origin: 'http://localhost:5173', secFetchSite: 'same-site', host })).toBeNull()
  expect(check({ origin: 'http://127.0.0.1:3000', secFetchSite: 'cross-site', host })).toBeNull()
  expect(check({ origin: 'http://192.168.1.5:4010', secFetchSite: 'same-origin', host: '192.168.1.5:4010' })).toBeNull()
  expect(check({ origin: 'https://qa.example.test', secFetchSite: 'cross-site', host })).toBeNull()
})

test('another site, a null origin, or cross-site fetch metadata alone: 403 forbidden_origin', () => {
  for (const caller of [
    { origin: 'https://evil.example', secFetchSite: 'cross-site', host },
    { origin: 'null', secFetchSite: undefined, host },
    { origin: undefined, secFetchSite: 'cross-site', host },
    { origin: 'http://localhost.evil.example', secFetchSite: undefined, host },
  ]) {
    const refused = check(caller)
    expect(refused?.status, JSON.stringify(caller)).toBe(403)
    expect(refused?.code).toBe('forbidden_origin')
    expect(refused?.message).toContain('--admin-origins')
  }
})
