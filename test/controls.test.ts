import { describe, expect, test } from 'vitest'
import { KEY, TRANSPORTS } from './support/harness.js'
import { useAdminApi, useAppServers } from './support/serve.js'
import { testTime } from './support/test-time.js'

const auth = { Authorization: `Bearer ${KEY}` }

describe.each(TRANSPORTS)('$name', ({ use }) => {
  const simulate = use()

  test('a fault with times: 2 fails exactly twice, then the operation behaves again', async () => {
    const api = simulate({ scenario: 'pending' })
    api.sim.addFault({ operation: 'listOrders', kind: 'status', status: 503, retryAfter: 7, times: 2 })

    const first = await api.list()
    const second = await api.list()
    const third = await api.list()

    expect([first.status, second.status, third.status]).toEqual([503, 503, 200])
    expect(first.json()).toEqual({ code: 'service_unavailable', message: expect.stringContaining('Injected fault'), status: 503 })
    expect(first.headers.get('Retry-After')).toBe('7')
    expect(api.sim.faults()).toEqual([])
  })

  test('a 500 fault scoped to one order fails only that order, and changes nothing', async () => {
    const api = simulate({ scenario: 'pending' })
    api.sim.addFault({ operation: 'cancelOrder', orderId: 2, kind: 'status', times: 1 })

    expect((await api.cancel(2)).status).toBe(500)
    expect(api.sim.orders().map((order) => order.status)).toEqual(['pending', 'pending', 'pending'])
    expect((await api.cancel(1)).status).toBe(204)
    expect((await api.cancel(2)).status).toBe(204)
  })

  test('a network fault reaches the client as a network error, and the next request is answered', async () => {
    const api = simulate({ scenario: 'missing' })
    api.sim.addFault({ operation: 'listOrders', kind: 'network', times: 1 })
    const base = await api.base()

    await expect(api.fetch(`${base}/store/orders`, { headers: auth })).rejects.toThrow(TypeError)
    expect((await api.list()).status).toBe(200)
  })

  test('a malformed-json fault sends a 200 whose body is not JSON', async () => {
    const api = simulate({ scenario: 'pending' })
    api.sim.addFault({ operation: 'listOrders', kind: 'malformed-json', times: 1 })
    const response = await api.fetch(`${await api.base()}/store/orders`, { headers: auth })
    expect(response.status).toBe(200)
    await expect(response.json()).rejects.toThrow(SyntaxError)
  })

  test('a slow-body fault delivers the whole body, late', async () => {
    const api = simulate({ scenario: 'pending' })
    api.sim.addFault({ operation: 'listOrders', kind: 'slow-body', durationMs: 300, times: 1 })
    const response = await api.fetch(`${await api.base()}/store/orders`, { headers: auth })
    const body = response.json() as Promise<unknown[]>
    // Late: once the headers are in, the body is not, even after every event already queued has run.
    expect(await Promise.race([body, new Promise((resolve) => setImmediate(resolve, 'not yet'))])).toBe('not yet')
    expect(await body).toHaveLength(3)
  })

  test('a hang fault answers nothing until the client gives up', async () => {
    const time = testTime()
    const api = simulate({ scenario: 'pending', time })
    api.sim.addFault({ operation: 'cancelOrder', kind: 'hang', times: 1 })
    const giveUp = new AbortController()
    let settled = false
    const cancel = api.fetch(`${await api.base()}/store/orders/1`, { method: 'DELETE', headers: auth, signal: giveUp.signal })
    void cancel.then(
      () => (settled = true),
      () => (settled = true),
    )
    // Held: the hang's wait is set, and nothing came back.
    await time.untilPending()
    await new Promise((resolve) => setImmediate(resolve))
    expect(settled).toBe(false)
    giveUp.abort()
    await expect(cancel).rejects.toThrow()
    expect(api.sim.orders()[0]?.status).toBe('pending')
    expect((await api.cancel(1)).status).toBe(204)
  })

  test('latency delays every answer by at least the set time', async () => {
    const time = testTime()
    const api = simulate({ scenario: 'pending', latency: { cancelOrder: 150 }, time })
    let answered = false
    const cancel = api.cancel(1).finally(() => (answered = true))
    await time.untilPending()
    time.advance(149)
    await new Promise((resolve) => setImmediate(resolve))
    // 1 ms short: its wait is still set, and nothing was answered.
    expect([time.pending(), answered]).toEqual([1, false])
    time.advance(1)
    expect((await cancel).status).toBe(204)
  })

  test('a rate limit counts down in RateLimit headers, then answers 429 with Retry-After', async () => {
    // The window on the test's time: it cannot roll over between the requests, however slow the machine.
    const api = simulate({ scenario: 'pending', rateLimit: '3/60s', time: testTime() })
    const remaining = []
    for (let index = 0; index < 3; index++) {
      const response = await api.list()
      expect(response.status).toBe(200)
      expect(response.headers.get('RateLimit-Limit')).toBe('3')
      remaining.push(response.headers.get('RateLimit-Remaining'))
    }
    expect(remaining).toEqual(['2', '1', '0'])

    const limited = await api.list()
    expect(limited.status).toBe(429)
    expect(limited.json()).toEqual({ code: 'rate_limited', message: expect.stringContaining('3 per 60 s'), status: 429 })
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(limited.headers.get('RateLimit-Remaining')).toBe('0')
    // Another key has its own budget.
    expect((await api.list({ key: 'another-key' })).headers.get('RateLimit-Remaining')).toBe('2')
  })

  test('Prefer: code=409 answers the documented 409 and leaves the order pending', async () => {
    const api = simulate({ scenario: 'pending' })
    const response = await api.request('DELETE', '/store/orders/1', { headers: [['Prefer', 'code=409']] })
    expect(response.status).toBe(409)
    expect(response.json()).toEqual({ code: 'order_already_shipped', message: expect.any(String), status: 409 })
    expect(response.headers.get('Preference-Applied')).toBe('code=409')
    expect(api.sim.orders()[0]?.status).toBe('pending')

    const forced204 = await api.request('DELETE', '/store/orders/2', { headers: [['Prefer', 'code=204']] })
    expect(forced204.status).toBe(204)
    expect(api.sim.orders()[1]?.status).toBe('pending')
  })

  test('Prefer: an undocumented code gives 400 listing the documented ones', async () => {
    const api = simulate({ scenario: 'pending' })
    const response = await api.request('GET', '/store/orders', { headers: [['Prefer', 'code=418']] })
    expect(response.status).toBe(400)
    expect((response.json() as { message: string }).message).toBe(
      'Prefer: code=418 is not a documented response of listOrders; the documented ones are 200, 401.',
    )
  })

  test("reset puts the simulator's own controls back: runtime faults go", async () => {
    const api = simulate({ scenario: 'pending' })
    api.sim.addFault({ operation: 'listOrders', kind: 'status' })
    api.sim.reset()
    expect(api.sim.faults()).toEqual([])
    expect((await api.list()).status).toBe(200)
  })
})

test('in process, bad control settings are refused with a message that says what to do', async () => {
  const { createSimulator } = await import('../src/index.js')
  const sim = createSimulator()
  expect(() => sim.addFault({ operation: 'listOrders', kind: 'explode' } as never)).toThrow(
    'Failed to configure the simulator: "kind" must be one of status, network, hang, slow-body, malformed-json',
  )
  expect(() => sim.setLatency('fast')).toThrow('latency must be milliseconds')
  expect(() => sim.setRateLimit('lots')).toThrow('A rate limit is "<requests>/<window>"')
  expect(() => createSimulator({ faults: [{ operation: 'listOrders', kind: 'status', times: 0 }] })).toThrow(
    'Failed to create the simulator: "times" must be a whole number of 1 or more',
  )
})

describe('scenario files', () => {
  test('carry latency, faults and rate limits; the built-in flaky-network and slow-cancel use them', async () => {
    const { createSimulator } = await import('../src/index.js')
    const slow = createSimulator({ scenario: 'slow-cancel' })
    expect(slow.latency()).toEqual({ cancelOrder: { min: 2000, max: 3000 } })
    const flaky = createSimulator({ scenario: 'flaky-network' })
    expect(flaky.latency()).toEqual({ default: { min: 50, max: 400 } })
    expect(flaky.faults().map((fault) => [fault.operation, fault.kind, fault.status ?? null, fault.probability])).toEqual([
      ['listOrders', 'network', null, 0.05],
      ['listOrders', 'status', 503, 0.05],
      ['cancelOrder', 'status', 503, 0.2],
    ])
    // A simulator option wins over the scenario's; reset brings the scenario's controls back.
    expect(createSimulator({ scenario: 'slow-cancel', latency: 0 }).latency()).toEqual({ default: { min: 0, max: 0 } })
    flaky.clearFaults()
    flaky.reset()
    expect(flaky.faults()).toHaveLength(3)
  })

  test('with a rate limit and a fault of their own, and bad ones refused by field', async () => {
    const { createSimulator } = await import('../src/index.js')
    const sim = createSimulator({
      scenario: { name: 'limited', rateLimit: '5/1m', faults: [{ operation: 'getPetById', kind: 'network' }] },
    })
    expect(sim.rateLimit()).toEqual({ limit: 5, windowSeconds: 60 })
    expect(sim.faults()).toHaveLength(1)
    expect(() =>
      createSimulator({ scenario: { name: 'bad', faults: [{ operation: 'listOrders', kind: 'status', status: 418 }] } }),
    ).toThrow('Failed to load scenario "bad": faults[0]: "status" goes with kind "status" and is one of 500, 502, 503, 504, got 418.')
    expect(() => createSimulator({ scenario: { name: 'bad', latency: '400-50' } })).toThrow(
      'Failed to load scenario "bad": latency must be milliseconds',
    )
  })
})

describe('admin API', () => {
  const serve = useAppServers()
  useAdminApi()

  test('POST, GET and DELETE /__sim/faults manage faults; bad input is a 400', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const added = await fetch(`${origin}/__sim/faults`, {
      method: 'POST',
      body: JSON.stringify({ operation: 'cancelOrder', kind: 'status', status: 503, times: 2 }),
    })
    expect(added.status).toBe(201)
    const fault = (await added.json()) as { id: number; remaining: number }
    expect(fault).toMatchObject({ operation: 'cancelOrder', kind: 'status', status: 503, times: 2, remaining: 2 })
    expect((await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: auth })).status).toBe(503)
    expect(await (await fetch(`${origin}/__sim/faults`)).json()).toEqual([{ ...fault, remaining: 1 }])

    expect((await fetch(`${origin}/__sim/faults/${fault.id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: auth })).status).toBe(204)

    const bad = await fetch(`${origin}/__sim/faults`, {
      method: 'POST',
      body: JSON.stringify({ operation: 'cancelOrder', kind: 'status', probability: 2 }),
    })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { message: string }).message).toBe('"probability" must be between 0 and 1, got 2.')
    expect((await fetch(`${origin}/__sim/faults/999`, { method: 'DELETE' })).status).toBe(404)
  })

  test('PUT /__sim/latency and /__sim/rate-limit change the live server; null turns them off', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const latency = await fetch(`${origin}/__sim/latency`, { method: 'PUT', body: '{"default":"0-5","cancelOrder":20}' })
    expect(await latency.json()).toEqual({ default: { min: 0, max: 5 }, cancelOrder: { min: 20, max: 20 } })
    expect((await fetch(`${origin}/__sim/rate-limit`, { method: 'PUT', body: '"1/60s"' })).status).toBe(200)
    expect((await fetch(`${origin}/v1/store/orders`, { headers: auth })).status).toBe(200)
    expect((await fetch(`${origin}/v1/store/orders`, { headers: auth })).status).toBe(429)
    expect(await (await fetch(`${origin}/__sim/rate-limit`, { method: 'PUT', body: 'null' })).json()).toBeNull()
    expect((await fetch(`${origin}/v1/store/orders`, { headers: auth })).status).toBe(200)
    const bad = await fetch(`${origin}/__sim/latency`, { method: 'PUT', body: '"slow"' })
    expect(bad.status).toBe(400)
  })
})
