import { expect, test } from 'petstore-orders-simulator/playwright'
import type { Page } from '@playwright/test'

/** Opens the app, pointed at the test's simulator. */
async function openApp(page: Page, api: string): Promise<void> {
  await page.goto(`/?api=${encodeURIComponent(api)}`)
}

const statusOf = (page: Page, id: number) => page.locator(`tr[data-order-id="${id}"] [data-status]`)

/** What the test's session received, one line a request. */
async function received(sim: { requests(): Promise<{ method: string; path: string; status: number }[]> }): Promise<string[]> {
  return (await sim.requests()).map(({ method, path, status }) => `${method} ${path} ${status}`)
}

test.describe('pending orders', () => {
  test.use({ scenario: 'pending' })

  test('cancelling an order shows it cancelled', async ({ page, sim }) => {
    await openApp(page, sim.url)
    await page.getByRole('button', { name: 'Cancel order 1' }).click()

    await expect(statusOf(page, 1)).toHaveText('cancelled')
    await expect(sim).toHaveReceived({ operation: 'cancelOrder', orderId: 1, status: 204 }, { times: 1 })
    expect((await sim.orders()).map((order) => order.status)).toEqual(['cancelled', 'pending', 'pending'])
    // Only this test's calls, although other tests cancel order 1 at the same time.
    expect(await received(sim)).toEqual(['GET /v1/store/orders 200', 'DELETE /v1/store/orders/1 204'])
  })

  test('another test starts from the same three pending orders', async ({ page, sim }) => {
    await openApp(page, sim.url)
    await page.getByRole('button', { name: 'Cancel order 1' }).click()
    await page.getByRole('button', { name: 'Cancel order 3' }).click()

    await expect(statusOf(page, 3)).toHaveText('cancelled')
    await expect(sim).toHaveReceived({ operation: 'cancelOrder', status: 204 }, { times: 2 })
    await expect(sim).not.toHaveReceived({ operation: 'cancelOrder', orderId: 2 })
    expect(await received(sim)).toEqual(['GET /v1/store/orders 200', 'DELETE /v1/store/orders/1 204', 'DELETE /v1/store/orders/3 204'])
  })
})

test.describe('an order that ships while the user looks', () => {
  test.use({ scenario: 'pending' })

  test('the app shows it pending, it ships meanwhile, and its cancel shows the 409 message', async ({ page, sim }) => {
    await openApp(page, sim.url)
    // The app shows orders it can cancel as open (it cannot see the status; the list has none).
    await expect(statusOf(page, 1)).toHaveText('open')
    await sim.updateOrder(1, { status: 'shipped' })
    await page.getByRole('button', { name: 'Cancel order 1' }).click()

    await expect(page.getByRole('alert')).toContainText('Order 1 could not be cancelled: Order 1 has already shipped')
    await expect(sim).toHaveReceived({ operation: 'cancelOrder', orderId: 1, status: 409 }, { times: 1 })
    // The admin change is not a request of the app: the journal holds the list and the cancel only.
    expect(await received(sim)).toEqual(['GET /v1/store/orders 200', 'DELETE /v1/store/orders/1 409'])
  })
})

test.describe('shipped orders', () => {
  test.use({ scenario: 'shipped' })

  test('cancelling a shipped order shows the 409 message and changes nothing', async ({ page, sim }) => {
    await openApp(page, sim.url)
    await page.getByRole('button', { name: 'Cancel order 1' }).click()

    await expect(page.getByRole('alert')).toContainText('Order 1 could not be cancelled: ')
    await expect(page.getByRole('alert')).toContainText('shipped')
    await expect(sim).toHaveReceived({ operation: 'cancelOrder', orderId: 1, status: 409 }, { times: 1 })
    expect((await sim.orders()).map((order) => order.status)).toEqual(['shipped', 'shipped', 'shipped'])
    expect(await received(sim)).toEqual(['GET /v1/store/orders 200', 'DELETE /v1/store/orders/1 409'])
  })
})

test.describe('no orders', () => {
  test.use({ scenario: 'missing' })

  test('an empty list says so', async ({ page, sim }) => {
    await openApp(page, sim.url)

    await expect(page.getByRole('status')).toHaveText('You have no orders.')
    await expect(page.getByRole('table', { name: 'Orders' })).toBeHidden()
    expect(await received(sim)).toEqual(['GET /v1/store/orders 200'])
  })
})

test.describe('in route mode, with no server', () => {
  // Nothing listens on this port: the simulator inside the test process answers through Playwright's routing.
  test.use({ simulatorMode: 'route', simulatorUrl: 'http://127.0.0.1:4011/v1', scenario: 'pending' })

  test('the same app cancels an order', async ({ page, sim }) => {
    await openApp(page, sim.url)
    await page.getByRole('button', { name: 'Cancel order 2' }).click()

    await expect(statusOf(page, 2)).toHaveText('cancelled')
    await expect(sim).toHaveReceived({ operation: 'cancelOrder', orderId: 2, status: 204 }, { times: 1 })
    expect((await sim.orders()).map((order) => order.status)).toEqual(['pending', 'cancelled', 'pending'])
    expect(await received(sim)).toEqual(['GET /v1/store/orders 200', 'DELETE /v1/store/orders/2 204'])
  })
})
