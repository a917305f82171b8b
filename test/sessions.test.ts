import { describe, expect, test } from 'vitest'
import { createSimulator } from '../src/index.js'
import { KEY, TRANSPORTS } from './support/harness.js'
import { useAppServers } from './support/serve.js'

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

test('sessions are bounded: the least recently used goes first, and idle ones expire', async () => {
  const sim = createSimulator({ scenario: 'pending', sessions: { max: 2, idleSeconds: 0.05 } })
  sim.session('a').reset('shipped')
  sim.session('b')
  sim.session('a')
  sim.session('c')
  expect(sim.sessions().map((session) => session.id)).toEqual(['a', 'c'])
  expect(sim.session('b').state().scenario).toBe('pending')
  await new Promise((resolve) => setTimeout(resolve, 80))
  sim.session('d')
  expect(sim.sessions().map((session) => session.id)).toEqual(['d'])
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
