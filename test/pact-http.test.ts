import { expect, test } from 'vitest'
import type { PactDocument } from '../src/index.js'
import { pactJson } from '../src/core/pact/pact-json.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

// Over HTTP, apart from test/pact.test.ts: msw's in-process server there would take these fetches.
const serve = useAppServers()
const ADMIN_JSON = { 'Content-Type': 'application/json' }
const names = (pact: PactDocument) => pact.interactions.map((interaction) => interaction.description)

test("GET /__sim/pact gives the default state's pact, or the session's named by X-Sim-Session, byte for byte as in process", async () => {
  const { origin, sim } = await serve({ scenario: 'pending' })
  const auth = { Authorization: 'Bearer petstore-test-key' }
  await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: auth })
  await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: { ...auth, 'X-Sim-Session': 'run-2' } })
  const response = await fetch(`${origin}/__sim/pact?consumer=orders-web`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^application\/json/)
  expect(await response.text()).toBe(pactJson(sim.pact({ consumer: 'orders-web' })))
  const session = await fetch(`${origin}/__sim/pact?consumer=orders-web&provider=orders`, { headers: { 'X-Sim-Session': 'run-2' } })
  const pact = (await session.json()) as PactDocument
  expect(pact.provider.name).toBe('orders')
  expect(names(pact)).toEqual(['DELETE /store/orders/1 given order 1 is pending: 204'])
})

test('GET /__sim/pact without consumer, with a bad name or an unknown field answers 400 naming it', async () => {
  const { origin } = await serve()
  for (const [query, named] of [
    ['', '"consumer" is required'],
    ['?consumer=', '"consumer" must be'],
    ['?consumer=a/b', '"consumer" must be'],
    [`?consumer=${'x'.repeat(65)}`, '"consumer" must be'],
    ['?consumer=web&provider=%20', '"provider" must be'],
    ['?consumer=web&name=x', 'Unknown query field "name"'],
  ] as const) {
    const response = await fetch(`${origin}/__sim/pact${query}`)
    expect(response.status, query).toBe(400)
    expect(((await response.json()) as { message: string }).message, query).toContain(named)
  }
})

test('POST /__sim/provider-states sets a state up for the session it names, and an unknown state is a 400 listing the known ones', async () => {
  const { origin, sim } = await serve({ scenario: 'pending' })
  const change = async (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${origin}/__sim/provider-states`, { method: 'POST', headers: { ...ADMIN_JSON, ...headers }, body: JSON.stringify(body) })
  const done = await change({ state: 'order 1 is shipped', params: { id: 1 }, action: 'setup' }, { 'X-Sim-Session': 's' })
  expect(done.status).toBe(200)
  expect(await done.json()).toEqual({ state: 'order 1 is shipped', action: 'setup' })
  expect(sim.session('s').order(1)?.status).toBe('shipped')
  expect(sim.order(1)?.status).toBe('pending')
  const unknown = await change({ state: 'order one is pending' })
  expect(unknown.status).toBe(400)
  const { message } = (await unknown.json()) as { message: string }
  expect(message).toContain(
    'the known ones are: order {id} is pending; order {id} is shipped; order {id} is cancelled; order {id} does not exist; the key is not accepted',
  )
  expect((await change({ state: 'order 1 is pending', action: 'later' })).status).toBe(400)
  expect((await change(['order 1 is pending'])).status).toBe(400)
})
