import { describe, expect, test } from 'vitest'
import '../src/vitest.js'
import { createSimulator } from '../src/index.js'
import { useAdminApi, useAppServers } from './support/serve.js'
import { TRANSPORTS } from './support/harness.js'
import { withUnhandledStrategy } from '../src/transports/msw/unhandled-requests.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

const FILTERS = [
  { operation: 'cancelOrder', orderId: 1, status: 204 },
  { operation: 'cancelOrder' },
  { method: 'delete', status: 404 },
  { operation: 'listOrders', status: 401 },
  { orderId: '0001' },
] as const

/** What a journal entry says of a request, without its time. */
const shape = ({
  method,
  path,
  status,
  operation,
  orderId,
}: {
  method: string
  path: string
  status: number
  operation: string | null
  orderId: unknown
}) => ({
  method,
  path,
  status,
  operation,
  orderId,
})

describe.each(TRANSPORTS)('sim.requests(filter) $name', ({ use }) => {
  const simulate = use()

  test('selects by operation, method, order id and status; the same calls give the same entries on every transport', async () => {
    const api = simulate({ scenario: 'pending' })
    await api.cancel(1)
    await api.cancel(1)
    await api.cancel(999)
    await api.list({ key: null })
    await api.list()
    expect(api.sim.requests({ operation: 'cancelOrder', orderId: 1, status: 204 }).map(shape)).toEqual([
      { method: 'DELETE', path: '/v1/store/orders/1', status: 204, operation: 'cancelOrder', orderId: 1 },
    ])
    expect(api.sim.requests({ operation: 'cancelOrder' }).map((entry) => entry.status)).toEqual([204, 409, 404])
    expect(api.sim.requests({ method: 'delete', status: 404 }).map((entry) => entry.orderId)).toEqual([999])
    expect(api.sim.requests({ operation: 'listOrders', status: 401 })).toHaveLength(1)
    expect(api.sim.requests({ orderId: '0001' })).toHaveLength(2)
    expect(api.sim.requests()).toHaveLength(5)
  })
})

describe('GET /__sim/requests?<filter> over HTTP', () => {
  const serve = useAppServers()

  test('answers the entries sim.requests(filter) gives for the same filter', async () => {
    const { origin, sim } = await serve({ scenario: 'pending' })
    const auth = { Authorization: 'Bearer petstore-test-key' }
    for (const id of [1, 1, 999]) await fetch(`${origin}/v1/store/orders/${id}`, { method: 'DELETE', headers: auth })
    await fetch(`${origin}/v1/store/orders`)
    for (const filter of FILTERS) {
      const query = new URLSearchParams(Object.entries(filter).map(([name, value]) => [name, String(value)]))
      const response = await fetch(`${origin}/__sim/requests?${query}`)
      expect(response.status).toBe(200)
      expect(((await response.json()) as Parameters<typeof shape>[0][]).map(shape), query.toString()).toEqual(
        sim.requests(filter).map(shape),
      )
    }
  })

  test('a bad filter is a 400 naming the field: unknown field, non-int64 orderId, unknown operation, a field twice', async () => {
    const { origin } = await serve()
    const cases = [
      ['colour=red', 'Unknown request filter field "colour"'],
      ['orderId=1.5', '"orderId" must be an int64'],
      ['orderId=9223372036854775808', '"orderId" must be an int64'],
      ['operation=deleteOrder', '"operation" must be one of listOrders, cancelOrder, getPetById'],
      ['status=2000', '"status" must be an HTTP status'],
      ['status=204&status=404', 'more than once'],
    ]
    for (const [query, message] of cases) {
      const response = await fetch(`${origin}/__sim/requests?${query}`)
      const body = (await response.json()) as { code: string; message: string; status: number }
      expect(response.status, query).toBe(400)
      expect(body.code).toBe('invalid_request')
      expect(body.message, query).toContain(message)
    }
  })
})

describe('in process, bad filters and exact int64 ids', () => {
  test('a bad filter is a TypeError naming the field', () => {
    const sim = createSimulator()
    expect(() => sim.requests({ colour: 'red' } as never)).toThrow(
      'Failed to read the requests of the simulator: Unknown request filter field "colour"',
    )
    expect(() => sim.requests({ orderId: 1.5 })).toThrow('"orderId" must be an int64')
  })

  test('order ids beyond 2^53 compare exactly', async () => {
    const sim = createSimulator({ scenario: { name: 'big', orders: [{ id: 9007199254740993n }, { id: 9007199254740992 }] } })
    const { setupServer } = await import('msw/node')
    const server = setupServer(...sim.handlers)
    server.listen(withUnhandledStrategy(server, {}, 'error'))
    try {
      await fetch('https://api.petstore.example/v1/store/orders/9007199254740993', {
        method: 'DELETE',
        headers: { Authorization: 'Bearer petstore-test-key' },
      })
    } finally {
      server.close()
    }
    expect(sim.requests({ orderId: 9007199254740993n })).toHaveLength(1)
    expect(sim.requests({ orderId: '9007199254740993' })).toHaveLength(1)
    expect(sim.requests({ orderId: 9007199254740992 })).toHaveLength(0)
  })
})

describe('expect(sim).toHaveReceived(filter, { times }) from petstore-orders-simulator/vitest', () => {
  const simulate = TRANSPORTS[0].use()

  test('passes on a match, counts times, and .not passes when nothing matches', async () => {
    const api = simulate({ scenario: 'pending' })
    await api.cancel(1)
    await api.cancel(1)
    expect(api.sim).toHaveReceived({ operation: 'cancelOrder', orderId: 1 })
    expect(api.sim).toHaveReceived({ operation: 'cancelOrder', orderId: 1 }, { times: 2 })
    expect(api.sim).toHaveReceived({ operation: 'cancelOrder', status: 204 }, { times: 1 })
    expect(api.sim).not.toHaveReceived({ operation: 'getPetById' })
    expect(api.sim).not.toHaveReceived({ operation: 'cancelOrder' }, { times: 3 })
    expect(api.sim.session('other')).not.toHaveReceived()
  })

  test('a failing match says what was expected and lists every request received', async () => {
    const api = simulate({ scenario: 'pending' })
    await api.cancel(1)
    await api.list()
    let message = ''
    try {
      expect(api.sim).toHaveReceived({ operation: 'cancelOrder', orderId: 2 }, { times: 1 })
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toContain('Expected the simulator to have received {"operation":"cancelOrder","orderId":"2"} 1 time; 0 matched.')
    expect(message).toContain('DELETE /v1/store/orders/1 -> 204 (cancelOrder)')
    expect(message).toContain('GET /v1/store/orders -> 200 (listOrders)')
    expect(() => expect(api.sim).not.toHaveReceived({ status: 204 })).toThrow(
      'Expected the simulator not to have received {"status":204}; 1 matched.',
    )
    expect(() => expect({}).toHaveReceived()).toThrow('toHaveReceived expects a simulator')
    // Not a pass in disguise: what is no simulator is an error either way.
    expect(() => expect({}).not.toHaveReceived()).toThrow('toHaveReceived expects a simulator')
  })
})
