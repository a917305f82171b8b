import { describe, expect, test } from 'vitest'
import { KEY, TRANSPORTS, type CallOptions } from './support/harness.js'

describe.each(TRANSPORTS)('$name', ({ use }) => {
  const simulate = use()

  const rejected: [string, CallOptions][] = [
    ['a missing Authorization header', { key: null }],
    ['an empty Authorization header', { authorization: '' }],
    ['the Bearer scheme with no token', { authorization: 'Bearer' }],
    ['the Bearer scheme followed by spaces only', { authorization: 'Bearer    ' }],
    ['another scheme', { authorization: `Basic ${btoa('user:petstore-test-key')}` }],
    ['the key with no scheme', { authorization: KEY }],
    ['an unknown key', { key: 'not-the-key' }],
    ['the key followed by another word', { authorization: `Bearer ${KEY} extra` }],
    ['the key in another case', { key: KEY.toUpperCase() }],
    ['a token with characters RFC 6750 forbids', { authorization: 'Bearer pet"store' }],
  ]

  describe.each([
    ['GET /store/orders', 'GET', '/store/orders'],
    ['DELETE /store/orders/{orderId}', 'DELETE', '/store/orders/1'],
    ['GET /pets/{petId}', 'GET', '/pets/1'],
  ])('%s', (_, method, path) => {
    test.each(rejected)('answers 401 unauthorized with WWW-Authenticate: Bearer for %s, and changes nothing', async (_, options) => {
      const api = simulate({ scenario: 'pending' })
      const before = api.sim.orders()

      const response = await api.request(method, path, options)

      expect(response.status).toBe(401)
      expect(response.headers.get('WWW-Authenticate')).toBe('Bearer')
      expect(response.headers.get('Content-Type')).toBe('application/json')
      expect(response.json()).toEqual({ code: 'unauthorized', message: expect.any(String), status: 401 })
      expect(api.sim.orders()).toEqual(before)
    })

    test('accepts the Bearer scheme in any case', async () => {
      for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
        const api = simulate({ scenario: 'default' })
        const response = await api.request(method, path, { authorization: `${scheme} ${KEY}` })
        expect(response.status, scheme).not.toBe(401)
      }
    })

    test('answers 401 for the right key in the bad-key scenario, which accepts none', async () => {
      const api = simulate({ scenario: 'bad-key' })
      const before = api.sim.orders()

      const response = await api.request(method, path)

      expect(response.status).toBe(401)
      expect((response.json() as { code: string }).code).toBe('unauthorized')
      expect(api.sim.orders()).toEqual(before)
    })
  })

  test('checks the key before anything else: a bad id or an unknown order without a key is 401, not 400 or 404', async () => {
    const api = simulate({ scenario: 'shipped' })
    expect((await api.cancel('abc', { key: null })).status).toBe(401)
    expect((await api.cancel(424242, { key: 'wrong' })).status).toBe(401)
    expect((await api.cancel(1, { key: 'wrong' })).status).toBe(401)
    expect((await api.pet('nope', { key: null })).status).toBe(401)
  })

  test('says in the message which of missing, malformed or unknown went wrong', async () => {
    const api = simulate({ scenario: 'default' })
    const message = async (options: CallOptions) => ((await api.list(options)).json() as { message: string }).message
    expect(await message({ key: null })).toMatch(/missing/i)
    expect(await message({ authorization: 'Basic abc' })).toMatch(/Bearer scheme/)
    expect(await message({ key: 'nope' })).toMatch(/not accepted/)
  })

  test('accepts every key a scenario lists, and only those', async () => {
    const api = simulate({
      scenario: { name: 'two-keys', description: 'two keys', apiKeys: ['alpha-key', 'beta.key=='], orders: [] },
    })
    expect((await api.list({ key: 'alpha-key' })).status).toBe(200)
    expect((await api.list({ key: 'beta.key==' })).status).toBe(200)
    expect((await api.list({ key: KEY })).status).toBe(401)
  })

  test('checks the key of every request, not once: accepted, refused, accepted, then refused once a reset takes it away', async () => {
    const api = simulate({ scenario: 'default' })
    expect((await api.list()).status).toBe(200)
    expect((await api.list({ key: 'not-the-key' })).status).toBe(401)
    expect((await api.list()).status).toBe(200)
    await api.sim.reset('bad-key')
    expect((await api.list()).status).toBe(401)
    expect((await api.cancel(1)).status).toBe(401)
    await api.sim.reset('default')
    expect((await api.list()).status).toBe(200)
  })

  test('routes every request by its own path and method, whatever came before', async () => {
    const api = simulate({ scenario: 'pending' })
    const answers: [string, string, number][] = [
      ['GET', '/store/orders', 200],
      ['GET', '/store/orders/1', 405],
      ['DELETE', '/store/orders/1', 204],
      ['DELETE', '/store/orders/1', 409],
      ['DELETE', '/store/orders/2', 204],
      ['GET', '/store/orders/', 200],
      ['GET', '/pets/101', 404],
      ['GET', '/store/nope', 404],
      ['GET', '/store/orders', 200],
    ]
    for (const [method, path, status] of answers) expect((await api.request(method, path)).status, `${method} ${path}`).toBe(status)
  })
})
