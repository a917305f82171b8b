import { afterEach, describe, expect, test } from 'vitest'
import { createSimulator, type Coverage } from '../src/index.js'
import { type RunningSimulator, startSimulatorServer } from '../src/server.js'
import { testTime } from './support/test-time.js'
import { useAdminApi } from './support/serve.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

const API = 'https://api.petstore.example/v1'
const KEY = { Authorization: 'Bearer petstore-test-key' }
const BAD_KEY = { Authorization: 'Bearer wrong' }

/** The counts that are not 0, by outcome id: what a sequence of requests should give exactly. */
const seen = (coverage: Coverage) => Object.fromEntries(coverage.outcomes.filter((o) => o.count > 0).map((o) => [o.id, o.count]))
const provoked = (coverage: Coverage) => Object.fromEntries(coverage.provoked.map((p) => [`${p.control} ${p.id}`, p.count]))

/** The sequence every transport is tried with: one of each kind of answer, some twice. */
async function exercise(send: (path: string, init?: RequestInit) => Promise<Response>): Promise<void> {
  const answered = [
    await send('/store/orders', { headers: KEY }),
    await send('/store/orders', { headers: KEY }),
    await send('/store/orders', { headers: BAD_KEY }),
    await send('/store/orders/1', { method: 'DELETE', headers: KEY }),
    await send('/store/orders/1', { method: 'DELETE', headers: KEY }),
    await send('/store/orders/99', { method: 'DELETE', headers: KEY }),
    await send('/store/orders/abc', { method: 'DELETE', headers: KEY }),
    await send('/store/orders/2', { method: 'DELETE' }),
    await send('/pets/7', { headers: KEY }),
  ]
  expect(answered.map((response) => response.status)).toEqual([200, 200, 401, 204, 409, 404, 400, 401, 404])
}

const EXERCISED = {
  'listOrders.200': 2,
  'listOrders.401.unauthorized': 1,
  'cancelOrder.204': 1,
  'cancelOrder.409.order_not_pending': 1,
  'cancelOrder.404.order_not_found': 1,
  'cancelOrder.400.invalid_order_id': 1,
  'cancelOrder.401.unauthorized': 1,
  'getPetById.404.pet_not_found': 1,
}

test('every outcome the OpenAPI document gives an operation is listed, 0 for those never seen, code null for a success', () => {
  const coverage = createSimulator({ scenario: 'pending' }).coverage()
  expect(coverage.outcomes.map((outcome) => outcome.id)).toEqual([
    'listOrders.200',
    'listOrders.200.empty',
    'listOrders.401.unauthorized',
    'cancelOrder.204',
    'cancelOrder.400.invalid_order_id',
    'cancelOrder.401.unauthorized',
    'cancelOrder.404.order_not_found',
    'cancelOrder.409.order_already_shipped',
    'cancelOrder.409.order_not_pending',
    'getPetById.200',
    'getPetById.401.unauthorized',
    'getPetById.404.pet_not_found',
  ])
  // Each with how to provoke it (test/outcome-recipes.test.ts follows every recipe).
  const recipe = { text: expect.any(String), steps: expect.any(Array) }
  expect(coverage.outcomes[0]).toEqual({ id: 'listOrders.200', operation: 'listOrders', status: 200, code: null, count: 0, recipe })
  expect(coverage.outcomes[7]).toEqual({
    id: 'cancelOrder.409.order_already_shipped',
    operation: 'cancelOrder',
    status: 409,
    code: 'order_already_shipped',
    count: 0,
    recipe,
  })
  expect(coverage).toMatchObject({ exercised: 0, total: 12, provoked: [] })
})

describe('in process', () => {
  test('a sequence of requests gives exactly the expected counts', async () => {
    const sim = createSimulator({ scenario: 'pending' })
    await exercise((path, init) => sim.fetch(`${API}${path}`, init))
    const coverage = sim.coverage()
    expect(seen(coverage)).toEqual(EXERCISED)
    expect(coverage.exercised).toBe(8)
    expect(coverage.total).toBe(12)
    // getPetById is deprecated: its calls are counted with the sunset date the simulator announces.
    expect(coverage.deprecated).toEqual([
      { operation: 'getPetById', method: 'GET', path: '/pets/{petId}', calls: 1, sunset: '2027-01-01T00:00:00.000Z' },
    ])
  })

  test('an empty list is its own outcome, the shipped refusal is another, and a pet found is getPetById.200', async () => {
    const sim = createSimulator({ scenario: 'missing' })
    await sim.fetch(`${API}/store/orders`, { headers: KEY })
    await sim.reset('shipped')
    await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY })
    await sim.reset('default')
    await sim.fetch(`${API}/pets/1`, { headers: KEY })
    await sim.fetch(`${API}/pets/1`, { headers: BAD_KEY })
    expect(seen(sim.coverage())).toEqual({
      'listOrders.200.empty': 1,
      'cancelOrder.409.order_already_shipped': 1,
      'getPetById.200': 1,
      'getPetById.401.unauthorized': 1,
    })
  })

  test('counts survive reset and journal.clear(); clearCoverage() starts over', async () => {
    const sim = createSimulator({ scenario: 'pending' })
    await sim.fetch(`${API}/store/orders`, { headers: KEY })
    await sim.reset('shipped')
    sim.journal.clear()
    await sim.fetch(`${API}/store/orders`, { headers: KEY })
    expect(seen(sim.coverage())).toEqual({ 'listOrders.200': 2 })
    sim.clearCoverage()
    expect(sim.coverage()).toMatchObject({ exercised: 0, provoked: [] })
    expect(sim.coverage().deprecated[0]?.calls).toBe(0)
    await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY })
    expect(seen(sim.coverage())).toEqual({ 'cancelOrder.409.order_already_shipped': 1 })
  })

  test('each session has its own coverage, apart from the default state', async () => {
    const sim = createSimulator({ scenario: 'pending' })
    const inSession = (id: string) => ({ ...KEY, 'X-Sim-Session': id })
    await sim.fetch(`${API}/store/orders`, { headers: inSession('a') })
    await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: inSession('b') })
    await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: inSession('b') })
    expect(seen(sim.session('a').coverage())).toEqual({ 'listOrders.200': 1 })
    expect(seen(sim.session('b').coverage())).toEqual({ 'cancelOrder.204': 1, 'cancelOrder.409.order_not_pending': 1 })
    expect(sim.coverage().exercised).toBe(0)
    sim.session('b').clearCoverage()
    expect(sim.session('b').coverage().exercised).toBe(0)
    expect(sim.session('a').coverage().exercised).toBe(1)
  })

  test("what faults, Prefer and the rate limit provoke is counted apart, not as the service's outcome", async () => {
    const sim = createSimulator({ scenario: 'pending' })
    sim.addFault({ operation: 'listOrders', kind: 'status', status: 503, times: 1 })
    sim.addFault({ operation: 'cancelOrder', kind: 'network', times: 1 })
    await sim.fetch(`${API}/store/orders`, { headers: KEY })
    await expect(sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY })).rejects.toThrow(TypeError)
    await sim.fetch(`${API}/store/orders/3`, { method: 'DELETE', headers: { ...KEY, Prefer: 'code=409' } })
    sim.setRateLimit('1/60s')
    await sim.fetch(`${API}/store/orders`, { headers: KEY })
    await sim.fetch(`${API}/store/orders`, { headers: KEY })
    const coverage = sim.coverage()
    // Only the one list the rate limit let through is the service's.
    expect(seen(coverage)).toEqual({ 'listOrders.200': 1 })
    expect(provoked(coverage)).toEqual({
      'fault listOrders.503.service_unavailable': 1,
      'fault cancelOrder.0.network': 1,
      'prefer cancelOrder.409.order_already_shipped': 1,
      'rate-limit listOrders.429.rate_limited': 1,
    })
    expect(coverage.provoked.find((entry) => entry.control === 'prefer')).toEqual({
      id: 'cancelOrder.409.order_already_shipped',
      operation: 'cancelOrder',
      status: 409,
      code: 'order_already_shipped',
      control: 'prefer',
      count: 1,
    })
  })

  test("a slow answer is still the service's outcome, and is counted as met under latency too", async () => {
    const time = testTime()
    const sim = createSimulator({ scenario: 'pending', time })
    sim.setLatency({ cancelOrder: { min: 500, max: 500 } })
    const cancelled = sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY })
    await time.untilPending(1)
    await time.advance(500)
    expect((await cancelled).status).toBe(204)
    const coverage = sim.coverage()
    expect(seen(coverage)).toEqual({ 'cancelOrder.204': 1 })
    expect(provoked(coverage)).toEqual({ 'latency cancelOrder.204': 1 })
  })
})

describe('what each control makes of an answer', () => {
  const list = (sim: ReturnType<typeof createSimulator>, headers: Record<string, string> = KEY) =>
    sim.fetch(`${API}/store/orders`, { headers })

  test("a slow body is the service's answer and the fault's; a broken body is the fault's alone, unless there was none to break", async () => {
    const time = testTime()
    const sim = createSimulator({ scenario: 'pending', time })
    sim.addFault({ operation: 'listOrders', kind: 'slow-body', durationMs: 10, times: 1 })
    await (await list(sim)).arrayBuffer()
    sim.addFault({ operation: 'listOrders', kind: 'malformed-json', times: 1 })
    await (await list(sim)).text()
    sim.addFault({ operation: 'cancelOrder', kind: 'malformed-json', times: 1 })
    expect((await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY })).status).toBe(204)
    const coverage = sim.coverage()
    expect(seen(coverage)).toEqual({ 'listOrders.200': 1, 'cancelOrder.204': 1 })
    expect(provoked(coverage)).toEqual({ 'fault listOrders.200.slow-body': 1, 'fault listOrders.200.malformed-json': 1 })
  })

  test("an undocumented Prefer code's 400 is Prefer's; a slow fault answer counts under latency as well", async () => {
    const time = testTime()
    const sim = createSimulator({ scenario: 'pending', time })
    expect((await list(sim, { ...KEY, Prefer: 'code=418' })).status).toBe(400)
    sim.setLatency({ listOrders: { min: 200, max: 200 } })
    sim.addFault({ operation: 'listOrders', kind: 'status', status: 503, times: 1 })
    const faulted = list(sim)
    await time.untilPending(1)
    await time.advance(200)
    expect((await faulted).status).toBe(503)
    expect(seen(sim.coverage())).toEqual({})
    expect(provoked(sim.coverage())).toEqual({
      'prefer listOrders.400.invalid_request': 1,
      'fault listOrders.503.service_unavailable': 1,
      'latency listOrders.503.service_unavailable': 1,
    })
  })

  test('a client that gives up during latency met no outcome: it is counted under latency as aborted', async () => {
    const time = testTime()
    const sim = createSimulator({ scenario: 'pending', time })
    sim.setLatency({ cancelOrder: { min: 5000, max: 5000 } })
    const giveUp = new AbortController()
    const cancel = sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY, signal: giveUp.signal })
    await time.untilPending(1)
    giveUp.abort()
    await expect(cancel).rejects.toThrow()
    await expect.poll(() => provoked(sim.coverage())).toEqual({ 'latency cancelOrder.0.aborted': 1 })
    expect(seen(sim.coverage())).toEqual({})
  })
})

describe('over HTTP', () => {
  let server: RunningSimulator | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  test('GET /__sim/coverage counts as in process, per session; DELETE /__sim/coverage starts over', async () => {
    server = await startSimulatorServer({ port: 0, host: '127.0.0.1', scenario: 'pending' })
    const { origin } = new URL(server.url)
    await exercise((path, init) => fetch(`${origin}/v1${path}`, init))
    await fetch(`${origin}/v1/store/orders`, { headers: { ...KEY, 'X-Sim-Session': 'qa-1' } })
    const read = async (headers: Record<string, string> = {}) => {
      const response = await fetch(`${origin}/__sim/coverage`, { headers })
      expect(response.status).toBe(200)
      return (await response.json()) as Coverage
    }
    expect(seen(await read())).toEqual(EXERCISED)
    expect(seen(await read({ 'X-Sim-Session': 'qa-1' }))).toEqual({ 'listOrders.200': 1 })
    // Journal clears and resets leave it; a DELETE of the coverage empties it.
    await fetch(`${origin}/__sim/requests`, { method: 'DELETE' })
    await fetch(`${origin}/__sim/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"scenario":"shipped"}',
    })
    expect((await read()).exercised).toBe(8)
    expect((await fetch(`${origin}/__sim/coverage`, { method: 'DELETE' })).status).toBe(204)
    expect((await read()).exercised).toBe(0)
    expect((await read({ 'X-Sim-Session': 'qa-1' })).exercised).toBe(1)
  })
})
