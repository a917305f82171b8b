import { describe, expect, test } from 'vitest'
import { createSimulator, ErrorCode } from '../src/index.js'
import { KEY } from './support/harness.js'
import { useAdminApi, useAppServers } from './support/serve.js'
import { testTime } from './support/test-time.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

const serve = useAppServers()
const auth = { Authorization: `Bearer ${KEY}` }

/** One admin call with a JSON body sent as text (so int64 ids keep their digits), and its answer. */
async function admin(origin: string, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${origin}/__sim${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body }),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as Record<string, unknown> }
}

const statuses = async (origin: string) =>
  ((await (await fetch(`${origin}/__sim/state`)).json()) as { orders: { id: number; status: string }[] }).orders.map((order) => [
    order.id,
    order.status,
  ])

describe('the admin API changes orders one at a time', () => {
  test('GET /__sim/orders/{id} gives the order with its status; GET /__sim/orders all of them', async () => {
    const { origin } = await serve({ scenario: 'shipped' })
    const one = await admin(origin, 'GET', '/orders/2')
    expect(one.status).toBe(200)
    expect(one.json()).toEqual({ id: 2, petId: 202, quantity: 3, shipDate: expect.any(String), complete: true, status: 'shipped' })
    const all = await admin(origin, 'GET', '/orders')
    expect((JSON.parse(all.text) as { id: number }[]).map((order) => order.id)).toEqual([1, 2, 3])
  })

  test('PATCH sets any field, null removes an optional one, and answers the order as /__sim/state shows it', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const patched = await admin(origin, 'PATCH', '/orders/2', '{"status":"shipped","quantity":7,"shipDate":null,"complete":true}')
    expect(patched.status).toBe(200)
    expect(patched.json()).toEqual({ id: 2, petId: 102, quantity: 7, complete: true, status: 'shipped' })
    const state = (await (await fetch(`${origin}/__sim/state`)).json()) as { orders: unknown[] }
    expect(state.orders[1]).toEqual(patched.json())
    // The API's own rules follow the new state: the shipped order refuses a cancel.
    const cancel = await fetch(`${origin}/v1/store/orders/2`, { method: 'DELETE', headers: auth })
    expect(cancel.status).toBe(409)
    expect(((await cancel.json()) as { code: string }).code).toBe('order_already_shipped')
    // And bypasses them on purpose: back to pending, then the cancel goes through.
    expect((await admin(origin, 'PATCH', '/orders/2', '{"status":"pending"}')).json()['status']).toBe('pending')
    expect((await fetch(`${origin}/v1/store/orders/2`, { method: 'DELETE', headers: auth })).status).toBe(204)
    expect(sim.orders()[1]).toMatchObject({ id: 2, status: 'cancelled', quantity: 7 })
  })

  test('POST adds an order with the next free id (201, Location), or the id given; the list shows it last', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const added = await admin(origin, 'POST', '/orders', '{"petId":12,"quantity":1}')
    expect(added.status).toBe(201)
    expect(added.headers.get('Location')).toBe('/__sim/orders/4')
    expect(added.json()).toEqual({ id: 4, petId: 12, quantity: 1, status: 'pending' })
    const big = await admin(origin, 'POST', '/orders', '{"id":9223372036854775807,"petId":9007199254740993,"status":"shipped"}')
    expect(big.status).toBe(201)
    expect(big.text).toBe('{"id":9223372036854775807,"status":"shipped","petId":9007199254740993}')
    expect((await admin(origin, 'GET', '/orders/9223372036854775807')).text).toBe(big.text)
    const list = await (await fetch(`${origin}/v1/store/orders`, { headers: auth })).text()
    expect(list.endsWith(',{"id":4,"petId":12,"quantity":1},{"id":9223372036854775807,"petId":9007199254740993}]')).toBe(true)
  })

  test('DELETE removes an order (204): the API then answers 404 for it', async () => {
    const { origin } = await serve({ scenario: 'pending' })
    const removed = await admin(origin, 'DELETE', '/orders/1')
    expect(removed.status).toBe(204)
    expect(removed.text).toBe('')
    expect(await statuses(origin)).toEqual([
      [2, 'pending'],
      [3, 'pending'],
    ])
    expect((await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: auth })).status).toBe(404)
  })

  test('acts on the session named by X-Sim-Session only, and never touches the journal of API requests', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const session = { 'X-Sim-Session': 'qa-1' }
    expect((await admin(origin, 'PATCH', '/orders/1', '{"status":"shipped"}', session)).status).toBe(200)
    expect((await admin(origin, 'POST', '/orders', '{}', session)).json()).toEqual({ id: 4, status: 'pending' })
    expect((await admin(origin, 'DELETE', '/orders/2', undefined, session)).status).toBe(204)
    expect(
      sim
        .session('qa-1')
        .orders()
        .map((order) => [order.id, order.status]),
    ).toEqual([
      [1, 'shipped'],
      [3, 'pending'],
      [4, 'pending'],
    ])
    expect(sim.orders().map((order) => order.status)).toEqual(['pending', 'pending', 'pending'])
    expect(sim.requests()).toEqual([])
    expect(sim.session('qa-1').requests()).toEqual([])
  })
})

test('an admin body is read exactly: a fault on order 9223372036854775807 keeps its id and fires on it', async () => {
  const { origin } = await serve({ scenario: 'pending' })
  await admin(origin, 'POST', '/orders', '{"id":9223372036854775807}')
  const fault = await admin(
    origin,
    'POST',
    '/faults',
    '{"operation":"cancelOrder","orderId":9223372036854775807,"kind":"status","status":503,"times":1}',
  )
  expect(fault.status).toBe(201)
  expect(fault.text).toContain('"orderId":9223372036854775807')
  expect((await fetch(`${origin}/v1/store/orders/9223372036854775806`, { method: 'DELETE', headers: auth })).status).toBe(404)
  expect((await fetch(`${origin}/v1/store/orders/9223372036854775807`, { method: 'DELETE', headers: auth })).status).toBe(503)
  const beyond = await admin(origin, 'POST', '/faults', '{"operation":"cancelOrder","orderId":9223372036854775808,"kind":"network"}')
  expect([beyond.status, beyond.json()['code']]).toEqual([400, 'invalid_request'])
  expect(beyond.json()['message']).toContain('got 9223372036854775808')
})

describe('the admin API refuses bad changes with an Error naming the field, and changes nothing', () => {
  test.each([
    [
      'a status the simulator does not know',
      'PATCH',
      '/orders/1',
      '{"status":"delivered"}',
      400,
      'invalid_request',
      /status must be one of "pending", "shipped", "cancelled", got the string "delivered"/,
    ],
    ['a quantity that is not an integer', 'PATCH', '/orders/1', '{"quantity":1.5}', 400, 'invalid_request', /quantity must be an integer/],
    ['a quantity that is a string', 'PATCH', '/orders/1', '{"quantity":"2"}', 400, 'invalid_request', /quantity must be an integer/],
    [
      'an unknown field',
      'PATCH',
      '/orders/1',
      '{"colour":"red"}',
      400,
      'invalid_request',
      /Unknown field "colour": the patch takes status, petId, quantity, shipDate, complete/,
    ],
    ['a new id', 'PATCH', '/orders/1', '{"id":5}', 400, 'invalid_request', /id cannot be changed/],
    ['a status of null', 'PATCH', '/orders/1', '{"status":null}', 400, 'invalid_request', /status cannot be removed/],
    [
      'a ship date that is no date-time',
      'PATCH',
      '/orders/1',
      '{"shipDate":"tomorrow"}',
      400,
      'invalid_request',
      /shipDate must be an ISO 8601 date-time/,
    ],
    ['a petId beyond int64', 'PATCH', '/orders/1', '{"petId":9223372036854775808}', 400, 'invalid_request', /"petId" must be an int64/],
    ['a body that is an array', 'PATCH', '/orders/1', '[1]', 400, 'invalid_request', /The patch must be an object/],
    ['a body that is not JSON', 'PATCH', '/orders/1', '{"status":', 400, 'invalid_request', /not valid JSON/],
    ['no body', 'PATCH', '/orders/1', undefined, 400, 'invalid_request', /The patch must be an object/],
    ['an order id that is no int64', 'PATCH', '/orders/abc', '{"quantity":1}', 400, 'invalid_order_id', /Invalid order id "abc"/],
    ['an order id beyond int64', 'GET', '/orders/9223372036854775808', undefined, 400, 'invalid_order_id', /Invalid order id/],
    ['an unknown order', 'PATCH', '/orders/99', '{"quantity":1}', 404, 'order_not_found', /Order 99 was not found/],
    ['an unknown order to read', 'GET', '/orders/99', undefined, 404, 'order_not_found', /Order 99 was not found/],
    ['an unknown order to remove', 'DELETE', '/orders/99', undefined, 404, 'order_not_found', /Order 99 was not found/],
    ['an order id to remove that is no int64', 'DELETE', '/orders/1.5', undefined, 400, 'invalid_order_id', /Invalid order id "1.5"/],
    ['a new order whose id exists', 'POST', '/orders', '{"id":2,"petId":5}', 409, 'order_exists', /Order 2 already exists/],
    [
      'a new order with an unknown field',
      'POST',
      '/orders',
      '{"pet":5}',
      400,
      'invalid_request',
      /Unknown field "pet": the order takes id, status/,
    ],
    ['a new order with a bad status', 'POST', '/orders', '{"status":"lost"}', 400, 'invalid_request', /status must be one of/],
    ['a new order with a bad id', 'POST', '/orders', '{"id":"seven"}', 400, 'invalid_request', /"id" must be an int64/],
    [
      'an advance past 24 hours',
      'POST',
      '/clock',
      '{"advance":"25h"}',
      400,
      'invalid_request',
      /^advance must be a duration from 0 to 24h/,
    ],
    ['an advance that does not parse', 'POST', '/clock', '{"advance":"soon"}', 400, 'invalid_request', /^advance must be a duration/],
    ['a negative advance', 'POST', '/clock', '{"advance":-1}', 400, 'invalid_request', /^advance must be a duration/],
    ['a clock body without advance', 'POST', '/clock', '{}', 400, 'invalid_request', /advance is required/],
    ['a clock body with another field', 'POST', '/clock', '{"advance":"1s","to":"2030"}', 400, 'invalid_request', /Unknown field "to"/],
  ])('%s', async (_, method, path, body, status, code, message) => {
    const { origin, sim } = await serve({ scenario: 'pending', lifecycle: { shipAfter: '30s' }, time: testTime() })
    const before = { state: sim.state(), clock: { ...sim.clock(), now: undefined } }
    const answer = await admin(origin, method, path, body)
    expect(answer.status).toBe(status)
    expect(answer.json()).toMatchObject({ code, status })
    expect(answer.json()['message']).toMatch(message)
    expect({ state: sim.state(), clock: { ...sim.clock(), now: undefined } }).toEqual(before)
  })

  test('wrong methods on the new paths answer 405 with Allow', async () => {
    const { origin } = await serve()
    for (const [method, path, allow] of [
      ['PUT', '/orders', 'GET, POST'],
      ['POST', '/orders/1', 'GET, PATCH, DELETE'],
      ['DELETE', '/clock', 'GET, POST'],
    ] as const) {
      const answer = await admin(origin, method, path, '{}')
      expect(answer.status, `${method} ${path}`).toBe(405)
      expect(answer.headers.get('Allow')).toBe(allow)
      expect(answer.json()['code']).toBe('method_not_allowed')
    }
  })
})

describe('in process: sim.updateOrder, sim.addOrder, sim.removeOrder', () => {
  test('take ids as numbers, bigints or decimal strings, and resolve once the model holds the change', async () => {
    const sim = createSimulator({ scenario: 'pending' })
    expect(await sim.updateOrder(1, { status: 'shipped' })).toMatchObject({ id: 1, status: 'shipped' })
    expect(await sim.updateOrder(2n, { petId: 9_007_199_254_740_993n })).toMatchObject({ id: 2, petId: 9_007_199_254_740_993n })
    expect(await sim.updateOrder('0003', { complete: null, quantity: 9 })).toEqual({
      id: 3,
      petId: 103,
      quantity: 9,
      shipDate: '2026-12-03T09:00:00.000Z',
      status: 'pending',
    })
    expect(await sim.addOrder({ id: '9223372036854775807' })).toEqual({ id: 9_223_372_036_854_775_807n, status: 'pending' })
    await sim.removeOrder(9_223_372_036_854_775_807n)
    expect(await sim.addOrder({})).toEqual({ id: 4, status: 'pending' })
    expect(sim.order(1)).toMatchObject({ status: 'shipped' })
    expect(sim.order('99')).toBeUndefined()
    expect(sim.orders().map((order) => order.id)).toEqual([1, 2, 3, 4])
    expect(sim.requests()).toEqual([])
  })

  test('act on a session only when called on it', async () => {
    const sim = createSimulator({ scenario: 'pending' })
    await sim.session('a').updateOrder(1, { status: 'cancelled' })
    await sim.session('a').removeOrder(3)
    expect(
      sim
        .session('a')
        .orders()
        .map((order) => order.status),
    ).toEqual(['cancelled', 'pending'])
    expect(sim.orders().map((order) => order.status)).toEqual(['pending', 'pending', 'pending'])
  })

  test('refuse bad input with a TypeError naming the field, an unknown id or a taken one with an ApiError code, changing nothing', async () => {
    const sim = createSimulator({ scenario: 'pending' })
    const before = sim.state()
    await expect(sim.updateOrder(1, { status: 'delivered' } as never)).rejects.toThrow(
      new TypeError(
        'Failed to update an order of the simulator: status must be one of "pending", "shipped", "cancelled", got the string "delivered".',
      ),
    )
    await expect(sim.updateOrder(1, { quantity: 1.5 })).rejects.toThrow(TypeError)
    await expect(sim.updateOrder(1.5, {})).rejects.toThrow('"orderId" must be an int64')
    await expect(sim.updateOrder(1, null as never)).rejects.toThrow('The patch must be an object')
    await expect(sim.updateOrder(99, {})).rejects.toMatchObject({
      code: ErrorCode.OrderNotFound,
      status: 404,
      message: 'Order 99 was not found.',
    })
    await expect(sim.removeOrder(99)).rejects.toMatchObject({ code: 'order_not_found' })
    await expect(sim.addOrder({ id: 1 })).rejects.toMatchObject({ code: ErrorCode.OrderExists, status: 409 })
    await expect(sim.addOrder({ colour: 'red' } as never)).rejects.toThrow('Unknown field "colour"')
    expect(sim.state()).toEqual(before)
  })

  test('a state holds at most 100,000 orders: the next add answers 409 too_many_orders', async () => {
    const sim = createSimulator({
      scenario: { name: 'full', generate: { count: 100_000, seed: 1, statuses: { shipped: 1 } } },
    })
    await expect(sim.addOrder({ petId: 1 })).rejects.toMatchObject({ code: ErrorCode.TooManyOrders, status: 409 })
    await sim.removeOrder(1)
    expect(await sim.addOrder({ petId: 1 })).toEqual({ id: 100_001, petId: 1, status: 'pending' })
    expect(sim.orders()).toHaveLength(100_000)
  }, 60_000)
})
