import type { Page } from '@playwright/test'
import { expect, type SimulatorFixture, test } from 'petstore-orders-simulator/playwright'

// A page on another loopback origin than the simulator's, as an app's usually is (any JSON page of the webServer: no CSP).
// Not one answered by a route: Chromium's Local Network Access blocks such a page from calling a loopback address.
const APP = 'http://localhost:4020/__sim/scenarios'

/** The calls the in-process and HTTP tests of request verification make (test/request-verification.test.ts), from a page. */
async function sendTheCalls(page: Page, api: string): Promise<void> {
  await page.goto(APP)
  await page.evaluate(async (base) => {
    const auth = { Authorization: 'Bearer petstore-test-key' }
    for (const id of [1, 1, 999]) await fetch(`${base}/store/orders/${id}`, { method: 'DELETE', headers: auth })
    await fetch(`${base}/store/orders`)
    await fetch(`${base}/store/orders`, { headers: auth })
  }, api)
}

const shape = ({ method, path, status, operation, orderId }: Awaited<ReturnType<SimulatorFixture['requests']>>[number]) => ({
  method,
  path,
  status,
  operation,
  orderId,
})

for (const mode of ['server', 'route'] as const) {
  test.describe(`in ${mode} mode`, () => {
    test.use({ scenario: 'pending', simulatorMode: mode, ...(mode === 'route' ? { simulatorUrl: 'http://127.0.0.1:4021/v1' } : {}) })

    test('the same filter gives the same entries as in process and over HTTP', async ({ page, sim }) => {
      await sendTheCalls(page, sim.url)
      expect((await sim.requests({ operation: 'cancelOrder', orderId: 1, status: 204 })).map(shape)).toEqual([
        { method: 'DELETE', path: '/v1/store/orders/1', status: 204, operation: 'cancelOrder', orderId: 1 },
      ])
      expect((await sim.requests({ operation: 'cancelOrder' })).map((entry) => entry.status)).toEqual([204, 409, 404])
      expect((await sim.requests({ method: 'delete', status: 404 })).map((entry) => entry.orderId)).toEqual([999])
      expect(await sim.requests({ operation: 'listOrders', status: 401 })).toHaveLength(1)
      expect(await sim.requests({ orderId: '0001' })).toHaveLength(2)
      expect(await sim.requests()).toHaveLength(5)
    })

    test('toHaveReceived passes, counts, and its .not passes when nothing matches', async ({ page, sim }) => {
      await sendTheCalls(page, sim.url)
      await expect(sim).toHaveReceived({ operation: 'cancelOrder', orderId: 1 }, { times: 2 })
      await expect(sim).toHaveReceived({ status: 404 })
      await expect(sim).not.toHaveReceived({ operation: 'cancelOrder', orderId: 2 })
      await expect(sim).not.toHaveReceived({ operation: 'cancelOrder', orderId: 1 }, { times: 1 })
    })

    test('a failing toHaveReceived says what was expected and lists what was received', async ({ page, sim }) => {
      await sendTheCalls(page, sim.url)
      const failure = await expect(sim)
        .toHaveReceived({ operation: 'cancelOrder', orderId: 3 }, { times: 1, timeout: 300 })
        .then(
          () => null,
          (error: Error) => error.message,
        )
      expect(failure).toContain('Expected the simulator to have received {"operation":"cancelOrder","orderId":"3"} 1 time; 0 matched.')
      expect(failure).toContain('  DELETE /v1/store/orders/1 -> 204 (cancelOrder)\n  DELETE /v1/store/orders/1 -> 409 (cancelOrder)')
      expect(failure).toContain('  GET /v1/store/orders -> 200 (listOrders)')

      const negated = await expect(sim)
        .not.toHaveReceived({ orderId: 999 }, { timeout: 300 })
        .then(
          () => null,
          (error: Error) => error.message,
        )
      expect(negated).toContain('Expected the simulator not to have received {"orderId":"999"}; 1 matched.')
    })

    test('a bad filter is an error naming the field', async ({ sim }) => {
      await expect(sim.requests({ colour: 'red' } as never)).rejects.toThrow('Unknown request filter field "colour"')
      await expect(sim.requests({ orderId: '9223372036854775808' })).rejects.toThrow('"orderId" must be an int64')
      await expect(expect(sim).toHaveReceived({ orderId: 1.5 })).rejects.toThrow('"orderId" must be an int64')
    })

    test('the verbs act on this test only: reset, faults, latency, rate limit', async ({ page, sim }) => {
      const fault = await sim.addFault({ operation: 'cancelOrder', kind: 'status', status: 503, times: 1 })
      expect(await sim.faults()).toEqual([fault])
      await sendTheCalls(page, sim.url)
      expect((await sim.requests({ operation: 'cancelOrder' })).map((entry) => entry.status)).toEqual([503, 204, 404])
      await sim.setLatency(0)
      await sim.setRateLimit('100/60s')
      expect((await sim.state()).orders.map((order) => order.status)).toEqual(['cancelled', 'pending', 'pending'])
      await sim.reset('shipped')
      expect((await sim.orders()).map((order) => order.status)).toEqual(['shipped', 'shipped', 'shipped'])
      expect(await sim.faults()).toEqual([])
      await sim.clearRequests()
      expect(await sim.requests()).toEqual([])
      expect(sim.session).toMatch(/^pw-\d+-0-[0-9a-f-]{36}$/)
    })

    test("the order verbs change this test's orders live: a shipped order refuses the app's cancel", async ({ page, sim }) => {
      expect(await sim.updateOrder(1, { status: 'shipped', complete: true })).toMatchObject({ id: 1, status: 'shipped', complete: true })
      expect(await sim.addOrder({ petId: 12, quantity: 2 })).toEqual({ id: 4, petId: 12, quantity: 2, status: 'pending' })
      await sim.removeOrder('2')
      expect((await sim.orders()).map((order) => [order.id, order.status])).toEqual([
        [1, 'shipped'],
        [3, 'pending'],
        [4, 'pending'],
      ])
      await page.goto(APP)
      const statuses = await page.evaluate(async (base) => {
        const auth = { Authorization: 'Bearer petstore-test-key' }
        const cancel = async (id: number) => (await fetch(`${base}/store/orders/${id}`, { method: 'DELETE', headers: auth })).status
        return [await cancel(1), await cancel(4), await cancel(2)]
      }, sim.url)
      expect(statuses).toEqual([409, 204, 404])
      // Not requests of the API: the journal holds the page's three cancels only.
      expect(await sim.requests()).toHaveLength(3)
      await expect(sim.updateOrder(99, { quantity: 1 })).rejects.toThrow('Order 99 was not found.')
      await expect(sim.addOrder({ id: 3 })).rejects.toThrow('Order 3 already exists')
      await expect(sim.updateOrder(3, { status: 'delivered' } as never)).rejects.toThrow(
        'status must be one of "pending", "shipped", "cancelled"',
      )
      const clock = await sim.advanceClock('30s')
      expect(clock).toMatchObject({ advancedMs: 30_000, lifecycle: null, pending: [] })
      expect(await sim.clock()).toEqual({ ...clock, now: expect.any(String) })
    })
  })
}
