import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { PROVIDER_STATES, type PactDocument } from '../src/index.js'
import { writePact } from '../src/node.js'
import { pactJson } from '../src/core/pact/pact-json.js'
import { type Harness, useInProcessSimulator } from './support/harness.js'

const simulate = useInProcessSimulator()

/** README's suite, in short: a cancel in `pending`, the journal cleared, then a cancel in `shipped`. */
async function readmeSuite(api: Harness): Promise<void> {
  await api.sim.reset('pending')
  api.sim.journal.clear()
  expect((await api.cancel(1)).status).toBe(204)
  await api.sim.reset('shipped')
  api.sim.journal.clear()
  expect((await api.cancel(1)).status).toBe(409)
}

const names = (pact: PactDocument) => pact.interactions.map((interaction) => interaction.description)

test('a pact holds every interaction the suite had, journal clears included, with its provider state', async () => {
  const api = simulate({ scenario: 'pending' })
  await readmeSuite(api)
  const pact = api.sim.pact({ consumer: 'orders-web' })
  expect(pact.consumer).toEqual({ name: 'orders-web' })
  expect(pact.provider).toEqual({ name: 'petstore-orders-service' })
  expect(pact.metadata).toEqual({ pactSpecification: { version: '4.0' } })
  expect(names(pact)).toEqual([
    'DELETE /store/orders/1 given order 1 is pending: 204',
    'DELETE /store/orders/1 given order 1 is shipped: 409 order_already_shipped',
  ])
  const [cancelled, refused] = pact.interactions
  expect(cancelled).toMatchObject({
    type: 'Synchronous/HTTP',
    providerStates: [{ name: 'order 1 is pending', params: { id: 1 } }],
    request: { method: 'DELETE', path: '/store/orders/1', headers: { Authorization: ['Bearer petstore-test-key'] } },
    response: { status: 204 },
  })
  expect(cancelled?.response.body).toBeUndefined()
  expect(refused?.response).toEqual({
    status: 409,
    headers: { 'Content-Type': ['application/json'] },
    body: {
      content: { code: 'order_already_shipped', message: 'Order 1 has already shipped and cannot be cancelled.', status: 409 },
      contentType: 'application/json',
      encoded: false,
    },
    matchingRules: { body: { '$.message': { combine: 'AND', matchers: [{ match: 'type' }] } } },
  })
})

test('the same requests twice give one interaction each, and two runs give the same bytes', async () => {
  const run = async () => {
    const api = simulate({ scenario: 'default' })
    for (let round = 0; round < 3; round++) {
      await api.list()
      await api.cancel(9999)
      await api.list({ key: 'not-a-key' })
    }
    await api.cancel(1)
    await api.cancel(1)
    return pactJson(api.sim.pact({ consumer: 'orders-web' }))
  }
  const first = await run()
  expect(await run()).toBe(first)
  const pact = JSON.parse(first) as PactDocument
  expect(names(pact)).toEqual([
    'GET /store/orders: 200',
    'DELETE /store/orders/9999 given order 9999 does not exist: 404 order_not_found',
    'GET /store/orders given the key is not accepted: 401 unauthorized',
    'DELETE /store/orders/1 given order 1 is pending: 204',
    'DELETE /store/orders/1 given order 1 is cancelled: 409 order_not_pending',
  ])
  // Nothing that changes from run to run: no time, duration, session or generated order.
  expect(first).not.toMatch(/"time"|duration|session|T\d\d:\d\d:\d\d\.\d{3}Z"(?!,\s*"complete": false)/i)
})

test('a list shows one example order whose fields are held by type, int64 pattern and date-time format', async () => {
  const api = simulate({ scenario: 'default' })
  await api.list()
  const [listed] = api.sim.pact({ consumer: 'orders-web' }).interactions
  expect(listed?.providerStates).toBeUndefined()
  expect(listed?.response.body?.content).toEqual([{ id: 1, petId: 1, quantity: 1, shipDate: '2026-01-01T00:00:00.000Z', complete: false }])
  expect(listed?.response.matchingRules?.['body']).toEqual({
    $: { combine: 'AND', matchers: [{ match: 'type', min: 0 }] },
    '$[*].id': { combine: 'AND', matchers: [{ match: 'regex', regex: '^-?[0-9]{1,19}$' }] },
    '$[*].petId': { combine: 'AND', matchers: [{ match: 'regex', regex: '^-?[0-9]{1,19}$' }] },
    '$[*].quantity': { combine: 'AND', matchers: [{ match: 'integer' }] },
    '$[*].shipDate': { combine: 'AND', matchers: [{ match: 'datetime', format: "yyyy-MM-dd'T'HH:mm:ss.SSSX" }] },
    '$[*].complete': { combine: 'AND', matchers: [{ match: 'boolean' }] },
  })
})

test('a 401 carries its challenge, and a request without a key says so', async () => {
  const api = simulate({ scenario: 'bad-key' })
  await api.cancel(1)
  await api.list({ key: null })
  const pact = api.sim.pact({ consumer: 'orders-web' })
  expect(names(pact)).toEqual([
    'DELETE /store/orders/1 given the key is not accepted: 401 unauthorized',
    'GET /store/orders without a key given the key is not accepted: 401 unauthorized',
  ])
  expect(pact.interactions[0]?.response.headers).toEqual({ 'Content-Type': ['application/json'], 'WWW-Authenticate': ['Bearer'] })
  expect(pact.interactions[1]?.request.headers).toBeUndefined()
})

test('what the rules did not answer stays out: faults, Prefer, rate limits, unknown paths and the pets operation', async () => {
  const api = simulate({ scenario: 'pending' })
  api.sim.addFault({ operation: 'listOrders', kind: 'status', status: 503, times: 1 })
  await api.list()
  await api.list({ headers: [['Prefer', 'code=401']] })
  // A code the operation does not document: Prefer's own 400, which the real service would never answer.
  await api.list({ headers: [['Prefer', 'code=418']] })
  await api.request('GET', '/nowhere')
  await api.pet(1)
  api.sim.setRateLimit('1/60s')
  await api.cancel(1)
  await api.cancel(1)
  expect(names(api.sim.pact({ consumer: 'orders-web' }))).toEqual(['DELETE /store/orders/1 given order 1 is pending: 204'])
})

test('a bad consumer or provider is a TypeError naming the field', () => {
  const { sim } = simulate()
  expect(() => sim.pact({} as { consumer: string })).toThrow(/^Failed to write a pact of the simulator: "consumer" is required/)
  expect(() => sim.pact({ consumer: '../etc' })).toThrow(/"consumer" must be 1 to 64 letters/)
  expect(() => sim.pact({ consumer: 'a'.repeat(65) })).toThrow(/"consumer"/)
  expect(() => sim.pact({ consumer: 'web', provider: 'a b' })).toThrow(/"provider" must be 1 to 64/)
  expect(sim.pact({ consumer: 'web', provider: 'orders.v1_x-y' }).provider.name).toBe('orders.v1_x-y')
})

test('each session has its own pact', async () => {
  const api = simulate({ scenario: 'pending' })
  const session = api.sim.session('run-1')
  await session.reset('shipped')
  await api.cancel(1, { headers: [['X-Sim-Session', 'run-1']] })
  await api.cancel(1)
  expect(names(session.pact({ consumer: 'web' }))).toEqual(['DELETE /store/orders/1 given order 1 is shipped: 409 order_already_shipped'])
  expect(names(api.sim.pact({ consumer: 'web' }))).toEqual(['DELETE /store/orders/1 given order 1 is pending: 204'])
})

test('writePact writes pacts/<consumer>-<provider>.json, whole, and gives its path', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pact-'))
  try {
    const api = simulate({ scenario: 'pending' })
    await api.cancel(1)
    const pact = api.sim.pact({ consumer: 'orders-web' })
    const file = writePact(pact, { dir: join(dir, 'pacts') })
    expect(file).toBe(join(dir, 'pacts', 'orders-web-petstore-orders-service.json'))
    expect(readFileSync(file, 'utf8')).toBe(pactJson(pact))
    expect(() => writePact({ ...pact, consumer: { name: '../x' } }, { dir })).toThrow(/^Failed to write the pact: "consumer"/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

describe('provider states', () => {
  test('PROVIDER_STATES names every state a pact may hold', () => {
    expect(PROVIDER_STATES).toEqual([
      'order {id} is pending',
      'order {id} is shipped',
      'order {id} is cancelled',
      'order {id} does not exist',
      'the key is not accepted',
    ])
  })

  test('each state makes the simulator answer as the pact says', async () => {
    const api = simulate({ scenario: 'pending' })
    const { sim } = api
    await sim.changeProviderState({ state: 'order 1 is shipped', params: { id: 1 } })
    expect((await api.cancel(1)).status).toBe(409)
    await sim.changeProviderState({ state: 'order 1 is pending' })
    expect((await api.cancel(1)).status).toBe(204)
    await sim.changeProviderState({ state: 'order 777 is pending', params: { id: 777 } })
    expect(sim.order(777)).toEqual({
      id: 777,
      petId: 1,
      quantity: 1,
      shipDate: '2026-01-01T00:00:00.000Z',
      complete: false,
      status: 'pending',
    })
    await sim.changeProviderState({ state: 'order 1 does not exist', params: { id: 1 } })
    expect((await api.cancel(1)).status).toBe(404)
    await sim.changeProviderState({ state: 'order 1 does not exist' })
    await sim.changeProviderState({ state: 'order 9223372036854775807 is cancelled', params: { id: 9223372036854775807n } })
    expect(sim.order('9223372036854775807')?.status).toBe('cancelled')
  })

  test('the key is not accepted until a teardown, an order state or a reset', async () => {
    const api = simulate({ scenario: 'pending' })
    await api.sim.changeProviderState({ state: 'the key is not accepted', action: 'setup' })
    expect((await api.list()).status).toBe(401)
    expect(api.sim.state().apiKeys).toEqual([])
    await api.sim.changeProviderState({ state: 'the key is not accepted', action: 'teardown' })
    expect((await api.list()).status).toBe(200)
    await api.sim.changeProviderState({ state: 'the key is not accepted' })
    await api.sim.changeProviderState({ state: 'order 1 is pending' })
    expect((await api.list()).status).toBe(200)
    await api.sim.changeProviderState({ state: 'the key is not accepted' })
    // What Pact's verifier sends before an interaction that names no state.
    await api.sim.changeProviderState({ state: '', params: {}, action: 'setup' })
    expect((await api.list()).status).toBe(200)
    await api.sim.changeProviderState({ state: 'the key is not accepted' })
    await api.sim.reset()
    expect(api.sim.state().apiKeys).toEqual(['petstore-test-key'])
  })

  test('an unknown state is a TypeError listing the known ones; a wrong id or action names its field', async () => {
    const { sim } = simulate()
    await expect(sim.changeProviderState({ state: 'an order exists' })).rejects.toThrow(
      /Unknown provider state "an order exists"; the known ones are: order \{id\} is pending; .*; the key is not accepted/,
    )
    await expect(sim.changeProviderState({ state: 'order 1 is pending', params: { id: 2 } })).rejects.toThrow(/params\.id/)
    await expect(sim.changeProviderState({ state: 'order 1 is pending', action: 'undo' as 'setup' })).rejects.toThrow(/"action"/)
  })
})
