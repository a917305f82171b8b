import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { KEY } from './support/harness.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

const serve = useAppServers()

const auth = { Authorization: `Bearer ${KEY}` }
const post = (url: string, body?: string, headers: Record<string, string> = { 'Content-Type': 'application/json' }) =>
  fetch(url, { method: 'POST', headers, ...(body === undefined ? {} : { body }) })

describe('GET /__sim/scenarios', () => {
  test('lists the built-in scenarios with descriptions, and the current one', async () => {
    const { origin } = await serve({ scenario: 'shipped' })
    const scenarios = (await (await fetch(`${origin}/__sim/scenarios`)).json()) as {
      name: string
      description: string
      builtin: boolean
      current: boolean
    }[]
    expect(scenarios.map((scenario) => scenario.name)).toEqual([
      'default',
      'pending',
      'shipped',
      'missing',
      'bad-key',
      'flaky-network',
      'slow-cancel',
    ])
    expect(scenarios.filter((scenario) => scenario.current).map((scenario) => scenario.name)).toEqual(['shipped'])
    for (const scenario of scenarios) {
      expect(scenario.description.length).toBeGreaterThan(10)
      expect(scenario.builtin).toBe(true)
    }
  })
})

describe('POST /__sim/reset', () => {
  test('switches the live server to another scenario', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const response = await post(`${origin}/__sim/reset`, '{"scenario":"shipped"}')
    expect(response.status).toBe(200)
    expect(((await response.json()) as { scenario: string }).scenario).toBe('shipped')
    const cancel = await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: auth })
    expect(cancel.status).toBe(409)
  })

  test('without a body puts the current scenario back to its initial state', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: auth })
    expect((await post(`${origin}/__sim/reset`, undefined, {})).status).toBe(200)
    expect(sim.orders().map((order) => order.status)).toEqual(['pending', 'pending', 'pending'])
    expect(sim.state().scenario).toBe('pending')
  })

  test('takes a seed: the same seed gives the same list as a fresh server with --seed', async () => {
    const { origin } = await serve()
    const seven = await serve({ seed: 7 })
    await post(`${origin}/__sim/reset`, '{"scenario":"default","seed":7}')
    const list = async (base: string) => (await fetch(`${base}/v1/store/orders`, { headers: auth })).text()
    expect(await list(origin)).toBe(await list(seven.origin))
  })

  test.each([
    ['an unknown name', '{"scenario":"shiped"}', 'unknown_scenario'],
    ['a relative path', '{"scenario":"../scenarios/shipped.json"}', 'unknown_scenario'],
    ['an absolute path', '{"scenario":"/etc/passwd"}', 'unknown_scenario'],
    ['a file name', '{"scenario":"shipped.json"}', 'unknown_scenario'],
    ['a scenario that is not a string', '{"scenario":{"name":"x"}}', 'invalid_request'],
    ['a negative seed', '{"seed":-1}', 'invalid_request'],
    ['a seed that is a string', '{"seed":"7"}', 'invalid_request'],
    ['an unknown field', '{"scenario":"shipped","sead":7}', 'invalid_request'],
    ['malformed JSON', '{"scenario":', 'invalid_request'],
    ['a JSON array', '["shipped"]', 'invalid_request'],
  ])('refuses %s with a 400 Error and keeps serving what it had', async (_, body, code) => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: auth })
    const before = sim.state()

    const response = await post(`${origin}/__sim/reset`, body)

    expect(response.status).toBe(400)
    const error = (await response.json()) as { code: string; message: string; status: number }
    expect(error).toMatchObject({ code, status: 400 })
    if (code === 'unknown_scenario')
      expect(error.message).toContain('The available scenarios are default, pending, shipped, missing, bad-key, flaky-network, slow-cancel')
    expect(sim.state()).toEqual(before)
  })

  test('an oversized body gives 413', async () => {
    const { origin } = await serve({ bodyLimit: 100 })
    const response = await post(`${origin}/__sim/reset`, JSON.stringify({ scenario: 'x'.repeat(500) }))
    expect(response.status).toBe(413)
    expect(((await response.json()) as { code: string }).code).toBe('payload_too_large')
  })

  test('reaches the file the server started with by its name, re-reading it', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'petstore-admin-'))
    onTestFinished(() => rmSync(directory, { recursive: true, force: true }))
    const path = join(directory, 'qa.json')
    const write = (status: string) =>
      writeFileSync(path, JSON.stringify({ name: 'qa', description: 'QA file', apiKeys: [KEY], orders: [{ id: 1, status }] }))
    write('pending')
    const { origin, sim } = await serve({ scenario: path })
    await post(`${origin}/__sim/reset`, '{"scenario":"missing"}')

    write('shipped')
    const response = await post(`${origin}/__sim/reset`, '{"scenario":"qa"}')

    expect(response.status).toBe(200)
    expect(sim.orders()).toEqual([{ id: 1, status: 'shipped' }])
    const scenarios = (await (await fetch(`${origin}/__sim/scenarios`)).json()) as { name: string; builtin: boolean }[]
    expect(scenarios.at(-1)).toEqual({ name: 'qa', description: 'QA file', builtin: false, current: true })
  })
})

describe('GET /__sim/state', () => {
  test('reports the scenario, options and every order with its status', async () => {
    const { origin } = await serve({ scenario: 'pending', afterCancel: 'keep' })
    await fetch(`${origin}/v1/store/orders/3`, { method: 'DELETE', headers: auth })
    const state = (await (await fetch(`${origin}/__sim/state`)).json()) as {
      scenario: string
      options: Record<string, unknown>
      orders: { id: number; status: string }[]
    }
    expect(state.scenario).toBe('pending')
    expect(state.options).toMatchObject({ baseUrl: '/v1', exposeStatus: false, afterCancel: 'keep' })
    expect(state.orders.map((order) => [order.id, order.status])).toEqual([
      [1, 'pending'],
      [2, 'pending'],
      [3, 'cancelled'],
    ])
  })
})

describe('the request journal', () => {
  test('lists method, path, status, time, duration and order id, newest last; DELETE clears it', async () => {
    const { origin } = await serve({ scenario: 'shipped' })
    await fetch(`${origin}/v1/store/orders`, { headers: auth })
    await fetch(`${origin}/v1/store/orders/2`, { method: 'DELETE', headers: auth })
    await fetch(`${origin}/v1/store/orders/abc`, { method: 'DELETE', headers: auth })

    const entries = (await (await fetch(`${origin}/__sim/requests`)).json()) as Record<string, unknown>[]

    expect(entries.map(({ method, path, status, orderId }) => [method, path, status, orderId])).toEqual([
      ['GET', '/v1/store/orders', 200, null],
      ['DELETE', '/v1/store/orders/2', 409, 2],
      ['DELETE', '/v1/store/orders/abc', 400, null],
    ])
    for (const entry of entries) {
      expect(new Date(entry['time'] as string).toISOString()).toBe(entry['time'])
      expect(entry['duration']).toBeGreaterThanOrEqual(0)
    }
    expect((await fetch(`${origin}/__sim/requests`, { method: 'DELETE' })).status).toBe(204)
    expect(await (await fetch(`${origin}/__sim/requests`)).json()).toEqual([])
  })

  test('is bounded: it keeps only the last journalSize requests', async () => {
    const { origin } = await serve({ scenario: 'missing', journalSize: 3 })
    for (let id = 1; id <= 8; id++) await fetch(`${origin}/v1/store/orders/${id}`, { method: 'DELETE', headers: auth })
    const entries = (await (await fetch(`${origin}/__sim/requests`)).json()) as { orderId: number }[]
    expect(entries.map((entry) => entry.orderId)).toEqual([6, 7, 8])
  })
})

describe('admin API boundaries', () => {
  test('unknown admin paths give 404 and wrong methods 405 with Allow', async () => {
    const { origin } = await serve()
    const missing = await fetch(`${origin}/__sim/nope`)
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { code: string }).code).toBe('not_found')
    const wrong = await fetch(`${origin}/__sim/reset`)
    expect(wrong.status).toBe(405)
    expect(wrong.headers.get('Allow')).toBe('POST')
  })

  test('with admin: false every /__sim path is a JSON 404, and the API still works', async () => {
    const { origin, sim } = await serve({ admin: false, scenario: 'pending' })
    for (const [method, path] of [
      ['GET', '/__sim/state'],
      ['POST', '/__sim/reset'],
      ['GET', '/__sim/requests'],
      ['GET', '/__sim/scenarios'],
    ]) {
      const response = await fetch(`${origin}${path}`, { method })
      expect(response.status, path).toBe(404)
      expect(((await response.json()) as { code: string }).code).toBe('not_found')
    }
    expect(sim.state().scenario).toBe('pending')
    expect((await fetch(`${origin}/v1/store/orders`, { headers: auth })).status).toBe(200)
  })

  test('the order API key is not needed for the admin API, and the admin API does not open the order API', async () => {
    const { origin } = await serve()
    expect((await fetch(`${origin}/__sim/state`)).status).toBe(200)
    expect((await fetch(`${origin}/v1/store/orders`)).status).toBe(401)
  })
})

describe('the admin token', () => {
  test.each([
    ['no Authorization header', {}],
    ['another token', { Authorization: 'Bearer not-the-secret' }],
    ['the order API key', { Authorization: `Bearer ${KEY}` }],
    ['the token without the Bearer scheme', { Authorization: 's3cret-admin' }],
  ])('refuses %s on every admin call with 401, changing nothing', async (_, headers) => {
    const { origin, sim } = await serve({ scenario: 'pending', adminToken: 's3cret-admin' })
    const before = sim.state()
    for (const [method, path] of [
      ['GET', '/__sim/state'],
      ['POST', '/__sim/reset'],
      ['GET', '/__sim/requests'],
      ['DELETE', '/__sim/requests'],
      ['GET', '/__sim/scenarios'],
      ['GET', '/__sim'],
    ]) {
      const response = await fetch(`${origin}${path}`, { method, headers })
      expect(response.status, `${method} ${path}`).toBe(401)
      expect(response.headers.get('WWW-Authenticate')).toBe('Bearer')
      expect(((await response.json()) as { code: string }).code).toBe('unauthorized')
    }
    expect(sim.state()).toEqual(before)
  })

  test('opens the admin API with the token (scheme in any case), and never the order API', async () => {
    const { origin } = await serve({ scenario: 'pending', adminToken: 's3cret-admin' })
    expect((await fetch(`${origin}/__sim/state`, { headers: { Authorization: 'Bearer s3cret-admin' } })).status).toBe(200)
    expect(
      (
        await fetch(`${origin}/__sim/reset`, {
          method: 'POST',
          headers: { Authorization: 'bearer s3cret-admin' },
          body: '{"scenario":"shipped"}',
        })
      ).status,
    ).toBe(200)
    const orders = await fetch(`${origin}/v1/store/orders`, { headers: { Authorization: 'Bearer s3cret-admin' } })
    expect(orders.status).toBe(401)
  })

  test('leaves the static demo page open', async () => {
    const { origin } = await serve({ adminToken: 's3cret-admin' })
    const response = await fetch(`${origin}/__sim/demo/mockServiceWorker.js`)
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/javascript/)
  })
})

test("the demo page and the worker script it registers come from one msw: the page carries the worker's integrity checksum", async () => {
  const { origin } = await serve()
  const worker = await (await fetch(`${origin}/__sim/demo/mockServiceWorker.js`)).text()
  const checksum = /INTEGRITY_CHECKSUM = '([0-9a-f]+)'/.exec(worker)?.[1]
  expect(checksum).toMatch(/^[0-9a-f]{32}$/)
  // The page's script and every chunk it imports, statically or when it starts the worker.
  const scripts = new Map<string, string>()
  const load = async (file: string): Promise<void> => {
    if (scripts.has(file)) return
    const text = await (await fetch(`${origin}/__sim/demo/${file}`)).text()
    scripts.set(file, text)
    for (const [, imported] of text.matchAll(/["']\.\/([\w-]+\.js)["']/g)) await load(imported ?? '')
  }
  await load('main.js')
  expect([...scripts.values()].some((text) => text.includes(checksum ?? ''))).toBe(true)
})
