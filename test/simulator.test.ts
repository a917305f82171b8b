import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { createSimulator } from '../src/index.js'
import { createHarness, KEY } from './support/harness.js'
import { withUnhandledStrategy } from '../src/transports/msw/unhandled-requests.js'

const server = setupServer()
beforeAll(() => server.listen(withUnhandledStrategy(server, {}, 'bypass')))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const auth = { Authorization: `Bearer ${KEY}` }

describe('independence', () => {
  test("two simulators side by side never see each other's orders", async () => {
    const a = createSimulator({ scenario: 'pending', baseUrl: 'https://a.example/v1' })
    const b = createSimulator({ scenario: 'pending', baseUrl: 'https://b.example/v1' })
    server.use(...a.handlers, ...b.handlers)

    expect((await createHarness(a, 'https://a.example/v1').cancel(1)).status).toBe(204)

    expect(a.orders()[0]?.status).toBe('cancelled')
    expect(b.orders()[0]?.status).toBe('pending')
    expect((await createHarness(b, 'https://b.example/v1').cancel(1)).status).toBe(204)
  })

  test('orders() returns copies: changing them changes nothing in the simulator', () => {
    const sim = createSimulator({ scenario: 'pending' })
    const orders = sim.orders()
    ;(orders[0] as { status: string }).status = 'shipped'
    expect(sim.orders()[0]?.status).toBe('pending')
  })
})

describe('reset', () => {
  test('puts the current scenario back to its initial state', async () => {
    const sim = createSimulator({ scenario: 'pending' })
    server.use(...sim.handlers)
    const api = createHarness(sim)
    const initial = sim.orders()
    await api.cancel(1)
    await api.cancel(2)

    sim.reset()

    expect(sim.orders()).toEqual(initial)
    expect((await api.cancel(1)).status).toBe(204)
  })

  test('switches scenario, with its keys: bad-key then answers 401 to the same key', async () => {
    const sim = createSimulator({ scenario: 'pending' })
    server.use(...sim.handlers)
    const api = createHarness(sim)

    sim.reset('bad-key')
    expect((await api.list()).status).toBe(401)
    sim.reset('shipped')
    expect((await api.cancel(1)).status).toBe(409)
    sim.reset('missing')
    expect((await api.list()).text).toBe('[]')
    expect(sim.state().scenario).toBe('missing')
  })

  test("takes the admin API's body shape too: { scenario, seed }", () => {
    const sim = createSimulator({ scenario: 'pending' })
    const seven = createSimulator({ seed: 7 }).orders()

    sim.reset({ scenario: 'default', seed: 7 })
    expect(sim.orders()).toEqual(seven)
    sim.reset({ scenario: 'shipped' })
    expect(sim.state().scenario).toBe('shipped')
    sim.reset({})
    expect(sim.state().scenario).toBe('shipped')
  })

  test('refuses an unknown scenario or a bad seed and keeps serving what it had', () => {
    const sim = createSimulator({ scenario: 'pending' })
    const before = sim.state()
    expect(() => sim.reset('nope')).toThrow('Failed to load scenario "nope"')
    expect(() => sim.reset('default', { seed: -3 })).toThrow(
      'Failed to reset the simulator: seed must be a whole number of 0 or more, got -3.',
    )
    expect(() => sim.reset({ description: 'no name', apiKeys: [] } as never)).toThrow('name is required')
    expect(sim.state()).toEqual(before)
  })

  test('is fast enough for every beforeEach: 1,000 resets of default finish and leave the initial state', () => {
    const sim = createSimulator()
    const initial = sim.orders()
    for (let index = 0; index < 1000; index++) sim.reset()
    expect(sim.orders()).toEqual(initial)
  })
})

describe('base URL', () => {
  test('by default answers /v1 on any origin: production, staging and localhost alike', async () => {
    const sim = createSimulator({ scenario: 'missing' })
    server.use(...sim.handlers)
    for (const origin of ['https://api.petstore.example', 'https://staging.api.petstore.example', 'http://localhost:3000']) {
      const response = await fetch(`${origin}/v1/store/orders`, { headers: auth })
      expect(response.status, origin).toBe(200)
      expect(await response.text()).toBe('[]')
    }
  })

  test('tolerates one trailing slash', async () => {
    const sim = createSimulator({ scenario: 'pending' })
    server.use(...sim.handlers)
    expect((await fetch('https://api.petstore.example/v1/store/orders/', { headers: auth })).status).toBe(200)
    expect((await fetch('https://api.petstore.example/v1/store/orders/1/', { method: 'DELETE', headers: auth })).status).toBe(204)
  })

  test('leaves requests outside the base path to other handlers: other versions, other prefixes', async () => {
    const sim = createSimulator({ scenario: 'missing' })
    server.use(...sim.handlers)
    const fallthrough: string[] = []
    server.events.on('request:unhandled', ({ request }) => fallthrough.push(new URL(request.url).pathname))
    for (const path of ['/v2/store/orders', '/api/v1/store/orders', '/v10/store/orders']) {
      // Not port 9: msw 3 leaves fetch-blocked ports alone. Nothing listens on this one.
      await fetch(`http://127.0.0.1:59999${path}`, { headers: auth }).catch(() => undefined)
    }
    server.events.removeAllListeners()
    expect(fallthrough).toEqual(['/v2/store/orders', '/api/v1/store/orders', '/v10/store/orders'])
  })

  test.each([
    ['GET', '/v1/store/orders/1/extra'],
    ['GET', '/v1/Store/Orders'],
    ['GET', '/V1/store/orders'],
    ['GET', '/v1'],
    ['GET', '/v1/pets'],
  ])('answers %s %s under the base path with 404 not_found in the Error shape', async (method, path) => {
    const sim = createSimulator({ scenario: 'pending' })
    server.use(...sim.handlers)
    const before = sim.orders()

    const response = await fetch(`https://api.petstore.example${path}`, { method, headers: auth })

    expect(response.status).toBe(404)
    expect(response.headers.get('Content-Type')).toBe('application/json')
    expect(await response.json()).toEqual({
      code: 'not_found',
      message: expect.stringContaining('The simulated operations are GET /v1/store/orders'),
      status: 404,
    })
    expect(sim.orders()).toEqual(before)
  })

  test('answers a path a server behind could read as another (an empty segment) with 400 invalid_path', async () => {
    const sim = createSimulator({ scenario: 'pending' })
    server.use(...sim.handlers)
    const response = await fetch('https://api.petstore.example/v1//store/orders', { headers: auth })
    expect([response.status, ((await response.json()) as { code: string }).code]).toEqual([400, 'invalid_path'])
  })

  test.each([
    ['POST', '/v1/store/orders', 'GET'],
    ['PUT', '/v1/store/orders/1', 'DELETE'],
    ['GET', '/v1/store/orders/1', 'DELETE'],
    ['DELETE', '/v1/store/orders', 'GET'],
    ['DELETE', '/v1/store/orders/', 'GET'],
    ['PATCH', '/v1/pets/1', 'GET'],
  ])('answers %s %s with 405 method_not_allowed and Allow: %s', async (method, path, allow) => {
    const sim = createSimulator({ scenario: 'pending' })
    server.use(...sim.handlers)

    const response = await fetch(`https://api.petstore.example${path}`, { method, headers: auth })

    expect(response.status).toBe(405)
    expect(response.headers.get('Allow')).toBe(allow)
    expect(await response.json()).toEqual({
      code: 'method_not_allowed',
      message: `${method} is not allowed on ${path}; use ${allow}.`,
      status: 405,
    })
    expect(sim.orders().every((order) => order.status === 'pending')).toBe(true)
  })

  test("with fallthrough, leaves unknown paths under the base to the consumer's own handlers", async () => {
    const sim = createSimulator({ scenario: 'pending', fallthrough: true })
    server.use(
      ...sim.handlers,
      http.get('*/v1/pets', () => HttpResponse.json(['mine'])),
    )
    expect(await (await fetch('https://api.petstore.example/v1/pets', { headers: auth })).json()).toEqual(['mine'])
  })

  test('lets handlers added later with server.use() win over its 404', async () => {
    const sim = createSimulator({ scenario: 'pending' })
    server.use(...sim.handlers)
    server.use(http.get('*/v1/pets', () => HttpResponse.json(['mine'])))
    expect(await (await fetch('https://api.petstore.example/v1/pets', { headers: auth })).json()).toEqual(['mine'])
  })

  test('can be pinned to one origin and path', async () => {
    const sim = createSimulator({ scenario: 'missing', baseUrl: 'https://staging.api.petstore.example/v1/' })
    server.use(...sim.handlers)
    const handled: string[] = []
    server.events.on('request:match', ({ request }) => handled.push(request.url))
    await fetch('https://staging.api.petstore.example/v1/store/orders', { headers: auth })
    await fetch('https://api.petstore.example/v1/store/orders', { headers: auth }).catch(() => undefined)
    server.events.removeAllListeners()
    expect(handled).toEqual(['https://staging.api.petstore.example/v1/store/orders'])
  })

  test('can be the root path', async () => {
    const sim = createSimulator({ scenario: 'missing', baseUrl: '/' })
    server.use(...sim.handlers)
    expect((await fetch('http://localhost/store/orders', { headers: auth })).status).toBe(200)
  })
})

describe('options', () => {
  test.each([
    [
      { baseUrl: 'ftp://x/v1' },
      'Failed to create the simulator: Failed to read baseUrl "ftp://x/v1": it must be an http(s) URL with no query or fragment.',
    ],
    [{ baseUrl: 'v1' }, 'it must be an absolute http(s) URL such as "https://api.petstore.example/v1" or a path such as "/v1"'],
    [{ seed: -1 }, 'seed must be a whole number of 0 or more, got -1.'],
    [{ seed: 1.5 }, 'seed must be a whole number of 0 or more, got 1.5.'],
    [{ afterCancel: 'drop' }, 'afterCancel must be "keep" or "remove", got "drop".'],
  ])('refuses %o with a message that says what to do', (options, message) => {
    expect(() => createSimulator(options as never)).toThrow(message)
  })

  test('state() reports scenario, seed, effective options and orders with status', () => {
    const sim = createSimulator({ scenario: 'shipped', exposeStatus: true })
    expect(sim.state()).toEqual({
      scenario: 'shipped',
      description: expect.any(String),
      source: 'shipped',
      apiKeys: ['petstore-test-key'],
      seed: null,
      options: {
        baseUrl: '/v1',
        exposeStatus: true,
        afterCancel: 'keep',
        lifecycle: null,
        deprecation: { deprecatedAt: new Date('2026-01-01T00:00:00Z'), sunsetAt: new Date('2027-01-01T00:00:00Z') },
        proxy: null,
      },
      orders: sim.orders(),
      routes: [],
    })
    expect(sim.state().orders.every((order) => order.status === 'shipped')).toBe(true)
  })
})
