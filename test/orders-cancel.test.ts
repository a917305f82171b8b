import { describe, expect, test } from 'vitest'
import { TRANSPORTS } from './support/harness.js'

describe.each(TRANSPORTS)('$name', ({ use }) => {
  const simulate = use()

  describe('DELETE /store/orders/{orderId}', () => {
    test('cancels a pending order: 204, an empty body, and the order becomes cancelled', async () => {
      const api = simulate({ scenario: 'pending' })

      const response = await api.cancel(1)

      expect(response.status).toBe(204)
      expect(response.text).toBe('')
      expect(api.sim.orders().find((order) => order.id === 1)?.status).toBe('cancelled')
      expect(
        api.sim
          .orders()
          .filter((order) => order.status === 'pending')
          .map((order) => order.id),
      ).toEqual([2, 3])
    })

    test('keeps a cancelled order in the list by default, with its five fields unchanged', async () => {
      const api = simulate({ scenario: 'pending' })
      const before = (await api.list()).json()

      await api.cancel(2)

      expect((await api.list()).json()).toEqual(before)
    })

    test('answers 409 order_already_shipped for a shipped order and leaves it shipped', async () => {
      const api = simulate({ scenario: 'shipped' })
      const before = api.sim.orders()

      const response = await api.cancel(1)

      expect(response.status).toBe(409)
      expect(response.json()).toEqual({ code: 'order_already_shipped', message: expect.stringContaining('shipped'), status: 409 })
      expect(api.sim.orders()).toEqual(before)
    })

    test('answers 409 order_not_pending for an order that is already cancelled, and changes nothing', async () => {
      const api = simulate({ scenario: 'pending' })
      expect((await api.cancel(3)).status).toBe(204)
      const before = api.sim.orders()

      const response = await api.cancel(3)

      expect(response.status).toBe(409)
      expect(response.json()).toEqual({ code: 'order_not_pending', message: expect.stringContaining('cancelled'), status: 409 })
      expect(api.sim.orders()).toEqual(before)
    })

    test('answers 404 order_not_found for an unknown id in every scenario that accepts the key', async () => {
      for (const scenario of ['default', 'pending', 'shipped', 'missing']) {
        const api = simulate({ scenario })
        const before = api.sim.orders()

        const response = await api.cancel(987654)

        expect(response.status, scenario).toBe(404)
        expect(response.json()).toEqual({ code: 'order_not_found', message: 'Order 987654 was not found.', status: 404 })
        expect(api.sim.orders()).toEqual(before)
      }
    })

    test('answers 404 for any id in the missing scenario, including 0 and negative ids', async () => {
      const api = simulate({ scenario: 'missing' })
      for (const id of ['1', '0', '-1', '9223372036854775807', '-9223372036854775808']) {
        const response = await api.cancel(id)
        expect(response.status, id).toBe(404)
        expect((response.json() as { code: string }).code).toBe('order_not_found')
      }
    })

    test.each(['abc', '1.5', '1e3', '0x10', '+1', '9223372036854775808', '-9223372036854775809', '%20%31', '1%2F2', 'one', '١'])(
      'answers 400 invalid_order_id for the path id %s and changes nothing',
      async (id) => {
        const api = simulate({ scenario: 'pending' })
        const before = api.sim.orders()

        const response = await api.cancel(id)

        expect(response.status).toBe(400)
        expect(response.json()).toMatchObject({ code: 'invalid_order_id', status: 400 })
        expect(api.sim.orders()).toEqual(before)
      },
    )

    test('answers 400 for a 5,000-digit id without echoing all of it', async () => {
      const api = simulate({ scenario: 'pending' })
      const response = await api.cancel('9'.repeat(5000))
      expect(response.status).toBe(400)
      expect(response.text.length).toBeLessThan(400)
    })

    test('compares ids exactly across the whole int64 range: 9007199254740993 never matches order 9007199254740992', async () => {
      const api = simulate({
        scenario: {
          name: 'big-ids',
          description: 'ids beyond 2^53',
          apiKeys: ['petstore-test-key'],
          orders: [
            { id: 9007199254740992, status: 'pending' },
            { id: 9223372036854775807n, status: 'pending' },
          ],
        },
      })

      expect((await api.cancel('9007199254740993')).status).toBe(404)
      expect((await api.cancel('9223372036854775806')).status).toBe(404)
      expect(api.sim.orders().map((order) => order.status)).toEqual(['pending', 'pending'])
      expect((await api.cancel('9007199254740992')).status).toBe(204)
      expect((await api.cancel('9223372036854775807')).status).toBe(204)
      expect(api.sim.orders()).toEqual([
        { id: 9007199254740992, status: 'cancelled' },
        { id: 9223372036854775807n, status: 'cancelled' },
      ])
    })

    test('sends int64 ids beyond 2^53 with every digit in the list', async () => {
      const api = simulate({
        scenario: {
          name: 'big',
          description: 'big',
          apiKeys: ['petstore-test-key'],
          orders: [{ id: 9223372036854775807n, petId: -9223372036854775808n, status: 'shipped' }],
        },
      })
      expect((await api.list()).text).toBe('[{"id":9223372036854775807,"petId":-9223372036854775808}]')
    })

    test('accepts a percent-encoded id and leading zeros as the same decimal number', async () => {
      const api = simulate({ scenario: 'pending' })
      expect((await api.cancel('%31')).status).toBe(204)
      expect((await api.cancel('002')).status).toBe(204)
      expect(api.sim.orders().map((order) => order.status)).toEqual(['cancelled', 'cancelled', 'pending'])
    })

    describe('with afterCancel: "remove"', () => {
      test('removes the cancelled order from the list, and a second cancel gives 404', async () => {
        const api = simulate({ scenario: 'pending', afterCancel: 'remove' })

        expect((await api.cancel(2)).status).toBe(204)

        expect(((await api.list()).json() as { id: number }[]).map((order) => order.id)).toEqual([1, 3])
        expect(api.sim.orders().map((order) => order.id)).toEqual([1, 3])
        const again = await api.cancel(2)
        expect(again.status).toBe(404)
        expect((again.json() as { code: string }).code).toBe('order_not_found')
      })

      test('can come from the scenario file, and the simulator option overrides it', async () => {
        const scenario = {
          name: 'removing',
          description: 'r',
          apiKeys: ['petstore-test-key'],
          afterCancel: 'remove' as const,
          orders: [{ id: 5, status: 'pending' as const }],
        }
        const fromScenario = simulate({ scenario })
        await fromScenario.cancel(5)
        expect(fromScenario.sim.orders()).toEqual([])

        const overridden = simulate({ scenario, afterCancel: 'keep' })
        await overridden.cancel(5)
        expect(overridden.sim.orders()).toEqual([{ id: 5, status: 'cancelled' }])
      })
    })
  })
})
