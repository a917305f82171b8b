import { describe, expect, test } from 'vitest'
import { TRANSPORTS } from './support/harness.js'

describe.each(TRANSPORTS)('$name', ({ use }) => {
  const simulate = use()

  const DOCUMENTED_FIELDS = ['complete', 'id', 'petId', 'quantity', 'shipDate']

  describe('GET /store/orders', () => {
    test('answers 200 with a JSON array of every order, documented fields only', async () => {
      const api = simulate({ scenario: 'pending' })

      const response = await api.list()

      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toBe('application/json')
      expect(response.json()).toEqual([
        { id: 1, petId: 101, quantity: 1, shipDate: '2026-12-01T09:00:00.000Z', complete: false },
        { id: 2, petId: 102, quantity: 2, shipDate: '2026-12-02T09:00:00.000Z', complete: false },
        { id: 3, petId: 103, quantity: 1, shipDate: '2026-12-03T09:00:00.000Z', complete: false },
      ])
    })

    test('returns the whole default store in one response: no pagination, query strings ignored', async () => {
      const api = simulate()
      const all = (await api.list()).json() as Record<string, unknown>[]

      expect(all.length).toBe(api.sim.orders().length)
      expect(all.length).toBeGreaterThanOrEqual(12)
      expect(all.length).toBeLessThanOrEqual(25)
      for (const order of all) expect(Object.keys(order).sort()).toEqual(DOCUMENTED_FIELDS)
      const limited = await api.request('GET', '/store/orders?limit=1&page=2&status=pending')
      expect(limited.json()).toEqual(all)
    })

    test('gives [] in the missing scenario', async () => {
      const api = simulate({ scenario: 'missing' })
      const response = await api.list()
      expect(response.status).toBe(200)
      expect(response.text).toBe('[]')
    })

    test('lists the orders of the shipped scenario as complete', async () => {
      const api = simulate({ scenario: 'shipped' })
      const orders = (await api.list()).json() as { id: number; complete: boolean }[]
      expect(orders.map((order) => [order.id, order.complete])).toEqual([
        [1, true],
        [2, true],
        [3, true],
      ])
    })

    test('adds each order status with exposeStatus, and follows cancellation', async () => {
      const api = simulate({ scenario: 'pending', exposeStatus: true })
      await api.cancel(1)

      const orders = (await api.list()).json() as { id: number; status: string }[]

      expect(orders.map((order) => [order.id, order.status])).toEqual([
        [1, 'cancelled'],
        [2, 'pending'],
        [3, 'pending'],
      ])
    })

    test('takes exposeStatus from the scenario file unless the option says otherwise', async () => {
      const scenario = {
        name: 'exposed',
        description: 'e',
        apiKeys: ['petstore-test-key'],
        exposeStatus: true,
        orders: [{ id: 1, status: 'shipped' as const }],
      }
      expect((await simulate({ scenario }).list()).json()).toEqual([{ id: 1, status: 'shipped' }])
      expect((await simulate({ scenario, exposeStatus: false }).list()).json()).toEqual([{ id: 1 }])
    })

    test('leaves out the fields a scenario order does not have (the spec marks none required)', async () => {
      const api = simulate({
        scenario: {
          name: 'sparse',
          description: 's',
          apiKeys: ['petstore-test-key'],
          orders: [
            { id: 7, status: 'pending' },
            { id: 8, quantity: 0, complete: false, status: 'pending' },
          ],
        },
      })
      expect((await api.list()).text).toBe('[{"id":7},{"id":8,"quantity":0,"complete":false}]')
    })

    test('mixes pending and shipped orders in the default scenario', async () => {
      const api = simulate()
      const statuses = new Set(api.sim.orders().map((order) => order.status))
      expect([...statuses].sort()).toEqual(['pending', 'shipped'])
    })
  })
})
