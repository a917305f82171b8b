import { describe, expect, test } from 'vitest'
import { createSimulator } from '../src/index.js'
import { API, KEY, TRANSPORTS } from './support/harness.js'
import { internalsOf } from '../src/core/simulator/internals.js'
import { SESSION_BYTES } from '../src/core/simulator/options.js'
import { OWN_ORDER_BYTES } from '../src/core/state/order-store.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

const auth = { Authorization: `Bearer ${KEY}` }

describe.each(TRANSPORTS)('$name', ({ use }) => {
  const simulate = use()

  test('X-Sim-Session gives a caller its own copy of the current scenario; the default session is untouched', async () => {
    const api = simulate({ scenario: 'pending' })

    const cancelled = await api.request('DELETE', '/store/orders/1', { headers: [['X-Sim-Session', 'run-a']] })

    expect(cancelled.status).toBe(204)
    expect(api.sim.session('run-a').orders()[0]?.status).toBe('cancelled')
    expect(api.sim.orders()[0]?.status).toBe('pending')
    expect((await api.request('DELETE', '/store/orders/1', { headers: [['X-Sim-Session', 'run-b']] })).status).toBe(204)
    expect((await api.cancel(1)).status).toBe(204)
  })

  test('a session has its own scenario, faults and journal', async () => {
    const api = simulate({ scenario: 'pending' })
    const mine = api.sim.session('mine')
    mine.reset('shipped')
    mine.addFault({ operation: 'listOrders', kind: 'status', status: 503, times: 1 })

    expect((await api.request('GET', '/store/orders', { headers: [['X-Sim-Session', 'mine']] })).status).toBe(503)
    expect((await api.request('DELETE', '/store/orders/1', { headers: [['X-Sim-Session', 'mine']] })).status).toBe(409)
    expect((await api.list()).status).toBe(200)
    expect(mine.journal.entries().map((entry) => entry.status)).toEqual([503, 409])
    expect(api.sim.journal.entries().map((entry) => entry.status)).toEqual([200])
  })

  test('an invalid session id is a 400', async () => {
    const api = simulate({ scenario: 'pending' })
    const response = await api.request('GET', '/store/orders', { headers: [['X-Sim-Session', 'bad id with spaces']] })
    expect(response.status).toBe(400)
    expect((response.json() as { code: string }).code).toBe('invalid_request')
  })
})

test("sessions are bounded, and a session in use is never dropped for a new one: the newcomer is refused, the colleague's state kept", () => {
  const sim = createSimulator({ scenario: 'pending', sessions: { max: 2 } })
  sim.session('a').reset('shipped')
  sim.session('b')
  expect(() => sim.session('c')).toThrow(expect.objectContaining({ status: 503, code: 'too_many_sessions' }))
  expect(sim.sessions().map((session) => session.id)).toEqual(['a', 'b'])
  expect(sim.session('a').state().scenario).toBe('shipped')
  expect(sim.endSession('b')).toBe(true)
  expect(sim.session('c').state().scenario).toBe('pending')
  expect(sim.sessions().map((session) => session.id)).toEqual(['a', 'c'])
})

test('a session costs what it changes, not what its scenario holds: forty sessions of 20,000 orders, one cancel each', async () => {
  const orders = Array.from({ length: 20_000 }, (_, index) => ({ id: index + 1, petId: 7, quantity: 1, status: 'pending' as const }))
  const sim = createSimulator({ scenario: { name: 'big-store', description: 'a big store', apiKeys: [KEY], orders } })
  for (let index = 1; index <= 40; index++) {
    const response = await sim.fetch(`${API}/store/orders/${index}`, {
      method: 'DELETE',
      headers: { ...auth, 'X-Sim-Session': `run-${index}` },
    })
    expect(response.status).toBe(204)
  }
  // Each session holds its journal's share and the one order it changed; the 20,000 are shared.
  expect(internalsOf(sim).sessionBytes()).toBe(40 * (SESSION_BYTES + OWN_ORDER_BYTES))
  const mine = sim.session('run-7').orders()
  expect(mine).toHaveLength(20_000)
  expect(mine.filter((order) => order.status === 'cancelled').map((order) => order.id)).toEqual([7])
  expect(sim.orders().every((order) => order.status === 'pending')).toBe(true)
  // A reset to the same scenario gives back what the session held.
  await sim.session('run-7').reset()
  expect(internalsOf(sim).sessionBytes()).toBe(40 * SESSION_BYTES + 39 * OWN_ORDER_BYTES)
  expect(sim.endSession('run-7')).toBe(true)
  expect(internalsOf(sim).sessionBytes()).toBe(39 * (SESSION_BYTES + OWN_ORDER_BYTES))
})

test('what sessions grow is bounded in bytes in all: past the bound a change is refused whole, and a new session gets 503', async () => {
  const sim = createSimulator({ scenario: 'pending', sessions: { maxBytes: 2 * SESSION_BYTES + 3 * OWN_ORDER_BYTES } })
  const mine = sim.session('mine')
  await mine.addOrder({ id: 100 })
  await mine.addOrder({ id: 101 })
  await mine.addOrder({ id: 102 })
  sim.session('other')
  await expect(mine.addOrder({ id: 103 })).rejects.toMatchObject({ status: 503, code: 'too_many_sessions' })
  expect(mine.orders().map((order) => order.id)).not.toContain(103)
  const response = await sim.fetch(`${API}/store/orders`, { headers: { ...auth, 'X-Sim-Session': 'third' } })
  expect(response.status).toBe(503)
  expect(response.headers.get('Retry-After')).toMatch(/^[1-9][0-9]*$/)
  expect(await response.json()).toMatchObject({ code: 'too_many_sessions', status: 503 })
  sim.endSession('other')
  expect((await sim.fetch(`${API}/store/orders`, { headers: { ...auth, 'X-Sim-Session': 'third' } })).status).toBe(200)
})

describe('over HTTP, ten test runs sharing one server', () => {
  const serve = useAppServers()

  test("each with its own session and scenario, interleaved, never see each other's orders or journal", async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const scenarios = ['pending', 'shipped', 'missing', 'bad-key', 'default']
    const runs = Array.from({ length: 10 }, (_, index) => ({
      id: `run-${index}`,
      scenario: scenarios[index % scenarios.length] ?? 'pending',
    }))
    const headers = (id: string) => ({ ...auth, 'X-Sim-Session': id })

    await Promise.all(
      runs.map(({ id, scenario }) =>
        fetch(`${origin}/__sim/reset`, { method: 'POST', headers: { 'X-Sim-Session': id }, body: JSON.stringify({ scenario }) }),
      ),
    )
    // Interleave: every run cancels order 1, then every run lists, all at once.
    const cancels = await Promise.all(
      runs.map(({ id }) =>
        fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: headers(id) }).then((response) => response.status),
      ),
    )
    const lists = await Promise.all(
      runs.map(({ id }) => fetch(`${origin}/v1/store/orders`, { headers: headers(id) }).then((response) => response.status)),
    )

    const expectedCancel: Record<string, number> = { pending: 204, shipped: 409, missing: 404, 'bad-key': 401, default: 204 }
    expect(cancels).toEqual(runs.map(({ scenario }) => expectedCancel[scenario]))
    expect(lists).toEqual(runs.map(({ scenario }) => (scenario === 'bad-key' ? 401 : 200)))
    for (const { id, scenario } of runs) {
      const state = (await (await fetch(`${origin}/__sim/state`, { headers: { 'X-Sim-Session': id } })).json()) as { scenario: string }
      expect(state.scenario).toBe(scenario)
      const journal = (await (await fetch(`${origin}/__sim/requests`, { headers: { 'X-Sim-Session': id } })).json()) as { method: string }[]
      expect(journal.map((entry) => entry.method)).toEqual(['DELETE', 'GET'])
    }
    const listed = (await (await fetch(`${origin}/__sim/sessions`)).json()) as { id: string }[]
    expect(listed.map((session) => session.id).sort()).toEqual(runs.map(({ id }) => id).sort())
    expect(sim.orders().every((order) => order.status === 'pending')).toBe(true)
    expect(sim.journal.entries()).toEqual([])
  })
})

test("a session's lifecycle schedule counts against the bound: a session that cannot hold it is refused, a reset to it changes nothing", async () => {
  const orders = Array.from({ length: 2_000 }, (_, index) => ({ id: index + 1, status: 'pending' as const }))
  const shipping = { name: 'shipping', description: 'every order ships in an hour', apiKeys: [KEY], orders, lifecycle: { shipAfter: '1h' } }
  const sim = createSimulator({ scenario: 'pending', sessions: { maxBytes: SESSION_BYTES + 100_000 } })
  const mine = sim.session('mine')
  const cancel = await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: { ...auth, 'X-Sim-Session': 'mine' } })
  expect(cancel.status).toBe(204)
  // 2,000 scheduled orders (about 250 KB) do not fit in the 100 KB left.
  expect(() => mine.reset(shipping)).toThrow(expect.objectContaining({ status: 503, code: 'too_many_sessions' }))
  expect(mine.state().scenario).toBe('pending')
  expect(mine.orders().find((order) => order.id === 1)?.status).toBe('cancelled')

  const shipper = createSimulator({ scenario: shipping, sessions: { maxBytes: SESSION_BYTES + 1024 } })
  expect(() => shipper.session('a')).toThrow(expect.objectContaining({ status: 503, code: 'too_many_sessions' }))
  expect(shipper.sessions()).toEqual([])
  shipper.close()
  sim.close()
})
