// Routes in a scenario (issue 45, item 1): answers for what the spec does not show, with the key
// required unless a route says "auth": false, never in place of a spec operation, listed, journalled
// and exported like the rest of the state. In process (sim.fetch) and over HTTP (the standalone server).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { createSimulator, type Scenario, type SimulatorOptions } from '../src/index.js'
import { createAjv } from './support/ajv.js'
import { expectResponseMatchesContract } from './support/contract.js'
import { send } from './support/raw-http.js'
import { postThenPreflight } from './support/post-preflight.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in set-up, not in the first test that calls /__sim.
useAdminApi()

const API = 'https://api.petstore.example/v1'
const KEY = 'petstore-test-key'
const auth = { Authorization: `Bearer ${KEY}` }

const INVENTORY = {
  method: 'GET',
  path: '/store/inventory',
  status: 200,
  headers: { 'X-Inventory-Source': 'scenario', 'Cache-Control': 'no-store' },
  body: { available: 3, sold: 9 },
} as const
const ORDER_BY_ID = { method: 'GET', path: '/store/orders/{orderId}', status: 200, body: { id: 1, note: 'from a route' } } as const
const CREATE = { method: 'POST', path: '/store/orders', status: 201, body: { id: 4, petId: 7, quantity: 1 } } as const
const HEALTH = { method: 'GET', path: '/status', status: 200, body: { up: true }, auth: false } as const

/** A scenario with routes; its orders as the pending scenario's. */
function withRoutes(routes: readonly unknown[] = [INVENTORY, ORDER_BY_ID, CREATE, HEALTH]): Scenario {
  return {
    name: 'with-routes',
    description: 'Pending orders and the rest of the service as routes.',
    apiKeys: [KEY],
    orders: [
      { id: 1, petId: 101, quantity: 1, complete: false, status: 'pending' },
      { id: 2, petId: 102, quantity: 2, complete: false, status: 'pending' },
    ],
    routes: routes as Scenario['routes'],
  } as Scenario
}

function temporaryFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-routes-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function simulator(options: SimulatorOptions = { scenario: withRoutes() }) {
  const sim = createSimulator(options)
  onTestFinished(() => sim.close())
  return sim
}

describe('in process (sim.fetch)', () => {
  test('GET /store/inventory answers with the route status, headers and JSON body', async () => {
    const sim = simulator()
    const response = await sim.fetch(`${API}/store/inventory`, { headers: auth })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toBe('application/json')
    expect(response.headers.get('X-Inventory-Source')).toBe('scenario')
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(await response.json()).toEqual({ available: 3, sold: 9 })
  })

  test('a {name} segment matches any one segment, and only one', async () => {
    const sim = simulator()
    for (const id of ['1', '42', 'abc']) {
      const response = await sim.fetch(`${API}/store/orders/${id}`, { headers: auth })
      expect(response.status, id).toBe(200)
      expect(await response.json()).toEqual({ id: 1, note: 'from a route' })
    }
    // Two segments where the route has one: no route takes it.
    const deeper = await sim.fetch(`${API}/store/orders/1/items`, { headers: auth })
    expect(deeper.status).toBe(404)
  })

  test('a route requires a valid key: 401 without one or with a wrong one, and the route body is not sent', async () => {
    const sim = simulator()
    const refused: Record<string, string>[] = [{}, { Authorization: 'Bearer not-the-key' }, { Authorization: 'Basic abc' }]
    for (const headers of refused) {
      const response = await sim.fetch(`${API}/store/inventory`, { headers })
      expect(response.status).toBe(401)
      const body = (await response.json()) as { code: string; status: number }
      expect(body).toMatchObject({ status: 401 })
      expect(body).not.toHaveProperty('available')
    }
    const created = await sim.fetch(`${API}/store/orders`, { method: 'POST', body: '{}' })
    expect(created.status).toBe(401)
    // The failed create changed nothing: the orders are the scenario's.
    expect(sim.orders().map((order) => order.id)).toEqual([1, 2])
  })

  test('"auth": false answers without a key', async () => {
    const sim = simulator()
    const response = await sim.fetch(`${API}/status`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ up: true })
  })

  test('a route of another method at a spec path answers, and the spec operation there is still simulated', async () => {
    const sim = simulator()
    const created = await sim.fetch(`${API}/store/orders`, { method: 'POST', headers: auth, body: '{"petId":7}' })
    expect(created.status).toBe(201)
    expect(await created.json()).toEqual({ id: 4, petId: 7, quantity: 1 })
    const list = await sim.fetch(`${API}/store/orders`, { headers: auth })
    const text = await list.text()
    expectResponseMatchesContract('GET', '/store/orders', { status: list.status, headers: list.headers, text })
    expect((JSON.parse(text) as { id: number }[]).map((order) => order.id)).toEqual([1, 2])
  })

  test.each([
    ['GET', '/store/orders', 'listOrders'],
    ['DELETE', '/store/orders/{orderId}', 'cancelOrder'],
    ['DELETE', '/store/orders/7', 'cancelOrder'],
    ['GET', '/pets/{petId}', 'getPetById'],
    ['GET', '/pets/7', 'getPetById'],
  ])('a route for %s %s is refused when the scenario loads, naming it', (method, path, operation) => {
    const scenario = withRoutes([INVENTORY, { method, path, status: 200, body: [] }])
    let message = ''
    try {
      createSimulator({ scenario }).close()
    } catch (error) {
      message = error instanceof Error ? error.message : String(error)
    }
    // The route by its place in the file, and the operation it would take.
    expect(message).toContain('routes[1]')
    expect(message).toContain(operation)
    expect(message).not.toMatch(/\n\s+at /)
  })

  test('a reset to a scenario with such a route is refused and leaves the state as it was', () => {
    const sim = simulator()
    expect(() => sim.reset(withRoutes([{ method: 'GET', path: '/store/orders', status: 200, body: [] }]))).toThrow(
      /routes\[0\].*listOrders/,
    )
    expect(sim.state().routes).toHaveLength(4)
  })

  test('sim.state() lists the routes, in the scenario order, as written', () => {
    const sim = simulator()
    expect(sim.state().routes).toEqual([INVENTORY, ORDER_BY_ID, CREATE, HEALTH])
    expect(simulator({ scenario: 'pending' }).state().routes).toEqual([])
  })

  test('a request a route answers is journalled, with its status, and not as forwarded', async () => {
    const sim = simulator()
    await sim.fetch(`${API}/store/inventory?page=2`, { headers: auth })
    await sim.fetch(`${API}/store/inventory`)
    await sim.fetch(`${API}/store/orders/9`, { headers: auth })
    const entries = sim.requests()
    expect(entries.map(({ method, path, status, operation }) => ({ method, path, status, operation }))).toEqual([
      { method: 'GET', path: '/v1/store/inventory?page=2', status: 200, operation: null },
      { method: 'GET', path: '/v1/store/inventory', status: 401, operation: null },
      { method: 'GET', path: '/v1/store/orders/9', status: 200, operation: null },
    ])
    expect(entries.some((entry) => 'forwarded' in entry)).toBe(false)
  })

  test('sim.exportScenario() holds the routes, and the export loads back answering the same', async () => {
    const sim = simulator()
    const exported = sim.exportScenario()
    expect(exported.routes).toEqual([INVENTORY, ORDER_BY_ID, CREATE, HEALTH])
    const again = simulator({ scenario: exported })
    const response = await again.fetch(`${API}/store/inventory`, { headers: auth })
    expect([response.status, await response.json()]).toEqual([200, { available: 3, sold: 9 }])
  })

  test('a path no route takes is still a 404, and a method nothing takes at a spec path a 405', async () => {
    const sim = simulator()
    const unknown = await sim.fetch(`${API}/store/carts`, { headers: auth })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ code: 'not_found', status: 404 })
    const put = await sim.fetch(`${API}/store/orders`, { method: 'PUT', headers: auth, body: '{}' })
    expect(put.status).toBe(405)
    expect(await put.json()).toMatchObject({ code: 'method_not_allowed', status: 405 })
    expect(sim.requests().map((entry) => entry.status)).toEqual([404, 405])
  })

  test("a 405 at a spec operation's path names the methods its routes answer there too", async () => {
    const sim = simulator()
    // POST /store/orders answers 201 (CREATE); a 405's Allow must list what the resource supports (RFC 9110, 15.5.6).
    const put = await sim.fetch(`${API}/store/orders`, { method: 'PUT', headers: auth, body: '{}' })
    expect(put.status).toBe(405)
    expect((put.headers.get('Allow') ?? '').split(/,\s*/).sort()).toEqual(['GET', 'POST'])
  })

  test('the 404 of an unknown path lists the routes beside the operations: ten, then how many more', async () => {
    const twelve = Array.from({ length: 12 }, (_, index) => ({ method: 'GET', path: `/r/${index}`, status: 200 }))
    const sim = simulator({ scenario: withRoutes([...twelve, { ...twelve[0], query: { q: 'cat' } }, HEALTH]) })
    const { message } = (await (await sim.fetch(`${API}/store/carts`, { headers: auth })).json()) as { message: string }
    const listed = twelve.slice(0, 10).map(({ path }) => `GET /v1${path}`)
    expect(message).toContain('The simulated operations are GET /v1/store/orders')
    // Each method and path once: a route per query shares its path with the others.
    expect(message).toContain(`The scenario's routes are ${listed.join(', ')} and 3 more.`)
    expect(message).toMatch(/and 3 more\.$/)
    const few = await simulator().fetch(`${API}/store/carts`, { headers: auth })
    expect(((await few.json()) as { message: string }).message).toMatch(
      /routes are GET \/v1\/store\/inventory, GET \/v1\/store\/orders\/\{orderId\}, POST \/v1\/store\/orders and GET \/v1\/status\.$/,
    )
    const none = await simulator({ scenario: 'pending' }).fetch(`${API}/store/carts`, { headers: auth })
    expect(((await none.json()) as { message: string }).message).not.toContain('routes')
    // Without an accepted key, only the routes answered without one: a recorded path is the deployment's own.
    const keyless = await simulator().fetch(`${API}/store/carts`)
    expect(((await keyless.json()) as { message: string }).message).toMatch(/The scenario's routes are GET \/v1\/status\.$/)
    const wrongKey = await sim.fetch(`${API}/store/carts`, { headers: { Authorization: 'Bearer not-a-key' } })
    expect(((await wrongKey.json()) as { message: string }).message).toMatch(/The scenario's routes are GET \/v1\/status\.$/)
  })

  test('a route path that repeats the base is refused in one line naming the route, the base and where it would answer', () => {
    const repeated = withRoutes([INVENTORY, { method: 'GET', path: '/v1/store/orders', status: 200, body: [] }])
    expect(() => createSimulator({ scenario: repeated })).toThrow(
      'Failed to load scenario "with-routes": routes[1].path "/v1/store/orders" starts with the API base /v1, under which ' +
        `every route's path is read: it would answer at "/v1/v1/store/orders"; write "/store/orders".`,
    )
    const sim = simulator()
    expect(() => sim.reset(withRoutes([{ method: 'POST', path: '/v1', status: 204 }]))).toThrow(/routes\[0\]\.path "\/v1" .*write "\/"/)
    expect(sim.state().routes).toHaveLength(4)
    // A path that only starts with the same letters, and any path under a root base, are the routes' own.
    expect(simulator({ scenario: withRoutes([{ method: 'GET', path: '/v1beta/x', status: 200 }]) }).state().routes).toHaveLength(1)
    const root = simulator({ scenario: repeated, baseUrl: 'https://api.petstore.example' })
    expect(root.state().routes).toHaveLength(2)
  })

  test('scenario.schema.json accepts a scenario with routes and refuses a malformed route', () => {
    const validate = createAjv({ strict: true }).compile(
      JSON.parse(readFileSync(new URL('../scenarios/scenario.schema.json', import.meta.url), 'utf8')) as object,
    )
    expect(validate(withRoutes()), JSON.stringify(validate.errors)).toBe(true)
    expect(validate(withRoutes([{ method: 'get', path: '/x', status: 200 }]))).toBe(false)
    expect(validate(withRoutes([{ method: 'GET', path: '/x', status: 99 }]))).toBe(false)
    expect(validate(withRoutes([{ method: 'GET', path: '/x', status: 200, extra: 1 }]))).toBe(false)
  })
})

describe('over HTTP (the standalone server)', () => {
  const serve = useAppServers()

  test('a scenario object with routes answers them, with the key, and a 401 without it', async () => {
    const { origin } = await serve({ scenario: withRoutes() })
    const inventory = await send(origin, '/v1/store/inventory', { headers: auth })
    expect(inventory.status).toBe(200)
    expect(inventory.headers['x-inventory-source']).toBe('scenario')
    expect(inventory.headers['content-type']).toBe('application/json')
    expect(JSON.parse(inventory.body)).toEqual({ available: 3, sold: 9 })
    expect((await send(origin, '/v1/store/inventory')).status).toBe(401)
    expect((await send(origin, '/v1/status')).status).toBe(200)
    const byId = await send(origin, '/v1/store/orders/77', { headers: auth })
    expect([byId.status, JSON.parse(byId.body)]).toEqual([200, { id: 1, note: 'from a route' }])
    expect((await send(origin, '/v1/store/carts', { headers: auth })).status).toBe(404)
  })

  test('GET /__sim/state lists the routes and GET /__sim/requests journals them', async () => {
    const { origin } = await serve({ scenario: withRoutes() })
    await send(origin, '/v1/store/inventory', { headers: auth })
    const state = JSON.parse((await send(origin, '/__sim/state')).body) as { routes: unknown[] }
    expect(state.routes).toEqual([INVENTORY, ORDER_BY_ID, CREATE, HEALTH])
    const journal = JSON.parse((await send(origin, '/__sim/requests')).body) as { method: string; path: string; status: number }[]
    expect(journal.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/v1/store/inventory', status: 200 },
    ])
  })

  test('a scenario file with a route for a spec operation is refused at start with one line naming the file and the route', async () => {
    const dir = temporaryFolder()
    const file = join(dir, 'takes-cancel.json')
    writeFileSync(file, JSON.stringify(withRoutes([{ method: 'DELETE', path: '/store/orders/{id}', status: 204 }])))
    const refused = await serve({ scenario: file }).then(
      () => '',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    )
    expect(refused).toContain('takes-cancel.json')
    expect(refused).toMatch(/routes\[0\].*cancelOrder/)
    expect(refused).not.toContain('\n')
  })

  test('routes per query: ?q=cat and ?q=rex answer their own bodies, the route without query the others', async () => {
    const search = (query: Record<string, string> | undefined, body: string) => ({
      method: 'GET',
      path: '/search',
      status: 200,
      query,
      body,
    })
    const { origin, sim } = await serve({
      scenario: withRoutes([
        search({ q: 'cat' }, 'cat'),
        search({ q: 'rex', page: '2' }, 'rex, page 2'),
        search({ q: 'rex' }, 'rex'),
        search(undefined, 'any'),
      ]),
    })
    const bodyAt = async (target: string) => JSON.parse((await send(origin, target, { headers: auth })).body) as string
    expect(await bodyAt('/v1/search?q=cat')).toBe('cat')
    expect(await bodyAt('/v1/search?q=rex')).toBe('rex')
    expect(await bodyAt('/v1/search?page=2&q=rex&x=1')).toBe('rex, page 2')
    expect(await bodyAt('/v1/search?q=%63at')).toBe('cat')
    expect(await bodyAt('/v1/search?q=dog')).toBe('any')
    expect(await bodyAt('/v1/search')).toBe('any')
    expect(sim.state().routes[0]).toMatchObject({ query: { q: 'cat' } })
  })

  test("a query no route of its path names is a 404 saying so; Allow still names the path's methods", async () => {
    const { origin } = await serve({ scenario: withRoutes([{ method: 'GET', path: '/search', status: 200, query: { q: 'cat' } }]) })
    const other = await send(origin, '/v1/search?q=secret-token-123', { headers: auth })
    expect(other.status).toBe(404)
    expect(JSON.parse(other.body)).toMatchObject({ code: 'not_found', message: expect.stringContaining('No route at GET "/v1/search"') })
    expect(other.body).not.toContain('secret-token-123')
    expect(JSON.parse(other.body).message).toContain('takes this query')
    const bare = await send(origin, '/v1/search', { headers: auth })
    expect([bare.status, JSON.parse(bare.body).message]).toEqual([404, expect.stringContaining('takes a request without a query')])
    const put = await send(origin, '/v1/search?q=cat', { method: 'PUT', headers: auth })
    expect([put.status, put.headers['allow']]).toEqual([405, 'GET'])
  })

  test('a route path holding a query is refused with the field to name it in', () => {
    expect(() => simulator({ scenario: withRoutes([{ method: 'GET', path: '/search?q=cat', status: 200 }]) })).toThrow(
      /routes\[0\]\.path must hold no query: name its parameters in "query"/,
    )
  })

  test('a folder file with a route that repeats the base is refused by a reset (409), and a scenario file at start', async () => {
    const dir = temporaryFolder()
    writeFileSync(
      join(dir, 'doubled.json'),
      JSON.stringify({ ...withRoutes([{ method: 'GET', path: '/v1/x', status: 200 }]), name: 'doubled' }),
    )
    const refused = await serve({ scenario: join(dir, 'doubled.json') }).then(
      () => '',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    )
    expect(refused).toMatch(/doubled\.json.*routes\[0\]\.path "\/v1\/x" starts with the API base \/v1.*"\/v1\/v1\/x"/)
    expect(refused).not.toContain('\n')
    const { origin } = await serve({ scenario: 'pending', scenariosDir: dir })
    const reset = await send(origin, '/__sim/reset', { method: 'POST', body: JSON.stringify({ scenario: 'doubled' }) })
    expect(reset.status).toBe(409)
    expect(JSON.parse(reset.body)).toMatchObject({
      code: 'scenario_file_invalid',
      message: expect.stringContaining('routes[0].path "/v1/x"'),
    })
    expect((await send(origin, '/v1/store/orders', { headers: auth })).status).toBe(200)
  })

  test("a browser's preflight for a route's method at a spec operation's path allows that method", async () => {
    const { origin } = await serve({ scenario: withRoutes() })
    expect(await postThenPreflight(origin)).toEqual({ created: 201, preflight: 204, allowed: expect.stringContaining('POST') })
  })

  test("a preflight allows the methods the state's one table answers at the path: the operation's and the routes'", async () => {
    const { origin } = await serve({ scenario: withRoutes() })
    const allowed = async (path: string) =>
      (
        await send(origin, path, {
          method: 'OPTIONS',
          headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'GET' },
        })
      ).headers['access-control-allow-methods']
    expect(await allowed('/v1/store/orders')).toBe('GET, POST')
    expect(await allowed('/v1/store/orders/7')).toBe('DELETE, GET')
    expect(await allowed('/v1/store/inventory')).toBe('GET')
    // Where nothing answers, any: the request itself then gets its readable 404.
    expect(await allowed('/v1/store/carts')).toBe('GET, POST, PUT, PATCH, DELETE')
  })

  test('POST /__sim/scenarios saves the routes, and the saved file loads answering them', async () => {
    const dir = temporaryFolder()
    const { origin } = await serve({ scenario: withRoutes(), scenariosDir: dir })
    const saved = await send(origin, '/__sim/scenarios', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'saved-routes' }),
    })
    expect(saved.status).toBe(201)
    const file = JSON.parse(readFileSync(join(dir, 'saved-routes.json'), 'utf8')) as { routes: unknown[] }
    expect(file.routes).toEqual([INVENTORY, ORDER_BY_ID, CREATE, HEALTH])
    const loaded = simulator({ scenario: join(dir, 'saved-routes.json') })
    const response = await loaded.fetch(`${API}/status`)
    expect([response.status, await response.json()]).toEqual([200, { up: true }])
  })
})
