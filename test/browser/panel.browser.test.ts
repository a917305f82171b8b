import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { type RunningSimulator, type SimulatorServerOptions, startSimulatorServer } from '../../src/server.js'
import { explainBrowserSkip, launchChromium, SKIP_BROWSER_TESTS } from '../support/chromium.js'
import { ROOT } from '../support/cli-process.js'
import { testTime } from '../support/test-time.js'
import { useAdminApi } from '../support/serve.js'

// Each test drives Chromium through a page: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

const ARTIFACTS = join(ROOT, 'test-results')
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
const AUTH = { Authorization: 'Bearer petstore-test-key' }

explainBrowserSkip('the Chromium tests of the QA panel')

const cellOf = (page: Page, id: number | string, column: number) => page.locator(`#orders tr[data-order-id="${id}"] td`).nth(column)
const statusOf = (page: Page, id: number) => cellOf(page, id, 5)
const rowOf = (page: Page, id: number | string) => page.locator(`#orders tr[data-order-id="${id}"]`)
const buttonsOf = (page: Page, id: number | string) => rowOf(page, id).getByRole('button').allTextContents()
/** The admin API's text of an order (not parsed: an int64 beyond 2^53 keeps its digits), or its status code. */
const adminOrder = async (origin: string, id: number | string) => {
  const response = await fetch(`${origin}/__sim/orders/${id}`)
  return response.ok ? await response.text() : response.status
}

describe.skipIf(SKIP_BROWSER_TESTS)('the QA panel at /__sim/ in Chromium', () => {
  // The server's admin app (express, which serves the pages) loads in set-up, not in the first test's page.
  useAdminApi()
  let browser: Browser
  const servers: RunningSimulator[] = []

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true })
    browser = await launchChromium()
  }, 60_000)
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })
  afterAll(async () => {
    await browser?.close()
  })

  // bypassCSP only where axe's script is injected: the page's policy allows its own script alone.
  async function open(options: SimulatorServerOptions = {}, colorScheme: 'light' | 'dark' = 'light', bypassCSP = false) {
    const server = await startSimulatorServer({ port: 0, host: '127.0.0.1', scenario: 'pending', ...options })
    servers.push(server)
    const origin = new URL(server.url).origin
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 }, colorScheme, bypassCSP })
    const page = await context.newPage()
    await page.goto(`${origin}/__sim/`)
    return { server, origin, page }
  }

  async function ordersOf(origin: string): Promise<{ id: number; petId: number }[]> {
    return (await (await fetch(`${origin}/v1/store/orders`, { headers: AUTH })).json()) as { id: number; petId: number }[]
  }

  test('switching the scenario in the panel changes what GET /v1/store/orders returns', async () => {
    const { origin, page } = await open()
    await expect.poll(() => cellOf(page, 1, 1).textContent()).toBe('101')
    await page.getByRole('combobox', { name: 'Scenario to load' }).selectOption('shipped')
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(async () => (await ordersOf(origin)).map((order) => order.petId)).toEqual([201, 202, 203])
    await expect.poll(() => statusOf(page, 1).textContent()).toBe('shipped')
  })

  test('a cancel made with curl shows in the orders table and the requests list by itself, without a reload', async () => {
    const { origin, page } = await open()
    await expect.poll(() => statusOf(page, 2).textContent()).toBe('pending')
    expect((await fetch(`${origin}/v1/store/orders/2`, { method: 'DELETE', headers: AUTH })).status).toBe(204)
    // The event stream looks every 250 ms of the machine's clock: how soon the page shows it is the machine's speed,
    // so the bound is the poll's own, sized for a busy machine (vitest.config.ts). Nothing here reloads or clicks.
    await expect.poll(() => statusOf(page, 2).textContent()).toBe('cancelled')
    await expect
      .poll(() => page.locator('#requests tr').first().locator('td').allTextContents())
      .toEqual([expect.any(String), 'DELETE', '/v1/store/orders/2', '204', expect.any(String), 'cancelOrder', '2'])
    // An int64 id beyond 2^53 keeps every digit.
    await fetch(`${origin}/v1/store/orders/9223372036854775807`, { method: 'DELETE', headers: AUTH })
    await expect.poll(() => page.locator('#requests tr').first().locator('td').last().textContent()).toBe('9223372036854775807')
  })

  test('a fault preset makes the next cancel answer 503, and the active fault shows with a remove button', async () => {
    const { origin, page } = await open()
    await page.getByRole('button', { name: 'Next 2 cancels answer 503' }).click()
    await page.getByRole('button', { name: /^Remove fault \d+$/ }).waitFor()
    expect((await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: AUTH })).status).toBe(503)
    await expect.poll(() => page.locator('#faults').textContent()).toContain('1 more time')
    await page.getByRole('button', { name: /^Remove fault \d+$/ }).click()
    await expect.poll(() => page.locator('#faults').textContent()).toBe('None.')
    expect((await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: AUTH })).status).toBe(204)
  })

  test("the session picker shows a session's own orders and steers that session", async () => {
    const { origin, page } = await open()
    await fetch(`${origin}/__sim/reset`, { method: 'POST', headers: { 'X-Sim-Session': 'qa-7' }, body: '{"scenario":"shipped"}' })
    await page.getByLabel('Session').selectOption('qa-7')
    await expect.poll(() => statusOf(page, 1).textContent()).toBe('shipped')
    await page.getByRole('button', { name: 'Next 2 cancels answer 503' }).click()
    await page.getByRole('button', { name: /^Remove fault/ }).waitFor()
    const session = { ...AUTH, 'X-Sim-Session': 'qa-7' }
    expect((await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: session })).status).toBe(503)
    // The default session was not touched.
    expect((await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: AUTH })).status).toBe(204)
  })

  test('a refused change shows the Error message next to its control and changes nothing', async () => {
    const { origin, page } = await open()
    await page.getByLabel('All operations').fill('fast')
    await page.getByRole('button', { name: 'Set latency' }).click()
    await expect.poll(() => page.locator('#latency-error').textContent()).toContain('latency')
    expect(await (await fetch(`${origin}/__sim/latency`)).json()).toBeNull()
    await page.getByLabel('Seed').fill('-3')
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => page.locator('#scenario-error').textContent()).toContain('"seed" must be a whole number')
  })

  test('works from the keyboard alone: choose a scenario, tab to Apply, press Enter', async () => {
    const { origin, page } = await open()
    await expect.poll(() => cellOf(page, 1, 1).textContent()).toBe('101')
    await page.getByRole('combobox', { name: 'Scenario to load' }).focus()
    await page.keyboard.press('End')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Apply')
    await page.keyboard.press('Enter')
    await expect
      .poll(async () => ((await (await fetch(`${origin}/__sim/state`)).json()) as { scenario: string }).scenario)
      .toBe('slow-cancel')
  })

  test("the scenario section's heading and its select have different accessible names", async () => {
    const { page } = await open()
    expect(await page.getByRole('heading', { name: 'Scenario', exact: true }).count()).toBe(1)
    expect(await page.getByRole('combobox', { name: 'Scenario to load', exact: true }).count()).toBe(1)
    expect(await page.getByRole('combobox', { name: 'Scenario', exact: true }).count()).toBe(0)
  })

  test("a row's Ship ships its order; its Ship and Cancel go away and focus stays in the row", async () => {
    const { origin, page } = await open()
    await expect.poll(() => buttonsOf(page, 2)).toEqual(['Ship', 'Cancel', 'Remove'])
    await rowOf(page, 2).getByRole('button', { name: 'Ship', exact: true }).click()
    await expect.poll(() => statusOf(page, 2).textContent()).toBe('shipped')
    expect(JSON.parse(String(await adminOrder(origin, 2)))).toMatchObject({ id: 2, status: 'shipped', complete: true })
    expect(await buttonsOf(page, 2)).toEqual(['Remove'])
    expect(
      await page.evaluate(() => [document.activeElement?.textContent, document.activeElement?.closest('tr')?.dataset['orderId']]),
    ).toEqual(['Remove', '2'])
    // The others are untouched.
    expect(await statusOf(page, 3).textContent()).toBe('pending')
  })

  test("a row's Cancel, pressed from the keyboard, cancels its order", async () => {
    const { origin, page } = await open()
    await rowOf(page, 3).getByRole('button', { name: 'Cancel', exact: true }).focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => statusOf(page, 3).textContent()).toBe('cancelled')
    expect(JSON.parse(String(await adminOrder(origin, 3)))).toMatchObject({ id: 3, status: 'cancelled' })
    expect(await buttonsOf(page, 3)).toEqual(['Remove'])
  })

  test("a row's Remove removes the row and the order", async () => {
    const { origin, page } = await open()
    await rowOf(page, 1).getByRole('button', { name: 'Remove', exact: true }).click()
    await expect.poll(() => rowOf(page, 1).count()).toBe(0)
    expect(await adminOrder(origin, 1)).toBe(404)
    const listed = (await (await fetch(`${origin}/__sim/orders`)).json()) as { id: number }[]
    expect(listed.map((order) => order.id)).toEqual([2, 3])
    expect((await ordersOf(origin)).map((order) => order.id)).toEqual([2, 3])
  })

  test('the Add order form adds an order that GET /v1/store/orders lists and the table shows; an int64 keeps its digits', async () => {
    const { origin, page } = await open()
    const form = page.getByRole('form', { name: 'Add order' })
    await form.getByLabel('Pet id').fill('104')
    await form.getByLabel('Quantity').fill('5')
    await form.getByLabel('Ship date').fill('2026-12-04T09:00:00.000Z')
    await form.getByRole('button', { name: 'Add order' }).click()
    // The next free id: one past the largest.
    await expect.poll(() => cellOf(page, 4, 1).textContent()).toBe('104')
    expect(await statusOf(page, 4).textContent()).toBe('pending')
    expect((await ordersOf(origin)).find((order) => order.id === 4)).toMatchObject({ id: 4, petId: 104, quantity: 5 })
    expect(await page.locator('#add-order-error').textContent()).toBe('')

    await form.getByLabel('Id', { exact: true }).fill('9007199254740993')
    await form.getByLabel('Pet id').fill('9223372036854775807')
    await form.getByLabel('Status').selectOption('shipped')
    await form.getByLabel('Complete').selectOption('true')
    await form.getByRole('button', { name: 'Add order' }).click()
    await expect.poll(() => cellOf(page, '9007199254740993', 1).textContent()).toBe('9223372036854775807')
    const text = String(await adminOrder(origin, '9007199254740993'))
    expect(text).toContain('"id":9007199254740993')
    expect(text).toContain('"petId":9223372036854775807')
    expect(text).toContain('"status":"shipped"')
    expect(await buttonsOf(page, '9007199254740993')).toEqual(['Remove'])
  })

  test('the Add order form with a taken id shows the 409 message next to it and adds nothing', async () => {
    const { origin, page } = await open()
    await expect.poll(() => rowOf(page, 3).count()).toBe(1)
    const form = page.getByRole('form', { name: 'Add order' })
    await form.getByLabel('Id', { exact: true }).fill('2')
    await form.getByLabel('Pet id').fill('999')
    await form.getByRole('button', { name: 'Add order' }).click()
    await expect.poll(() => form.getByRole('alert').textContent()).toBe('Order 2 already exists; change it with PATCH, or give another id.')
    expect(JSON.parse(String(await adminOrder(origin, 2)))).toMatchObject({ id: 2, petId: 102 })
    expect((await ordersOf(origin)).map((order) => order.id)).toEqual([1, 2, 3])
    expect(await page.locator('#orders tr').count()).toBe(3)
  })

  test('with a lifecycle, the panel shows it, and Advance clock by 30s ships the pending orders', async () => {
    // On the test's time: on the machine's, a slow run would ship the orders before the clock is advanced.
    const { page } = await open({ lifecycle: { shipAfter: '30s' }, time: testTime() })
    await expect
      .poll(() => page.locator('#lifecycle-now').textContent())
      .toBe('Lifecycle: pending orders ship 30 s after they are loaded, reset or added.')
    await expect.poll(() => page.locator('#clock-now').textContent()).toContain('3 transitions to come')
    expect(await page.getByLabel('Advance by').inputValue()).toBe('30s')
    await page.getByRole('button', { name: 'Advance clock' }).click()
    for (const id of [1, 2, 3]) await expect.poll(() => statusOf(page, id).textContent()).toBe('shipped')
    await expect.poll(() => page.locator('#clock-now').textContent()).toContain('No transitions to come')
    expect(await page.locator('#clock-now').textContent()).toContain('advanced 30 s')
    expect(await page.locator('#clock-error').textContent()).toBe('')
  })

  test('a lifecycle with a range shows both ends', async () => {
    const { page } = await open({ lifecycle: { min: '10s', max: '2m' }, time: testTime() })
    await expect
      .poll(() => page.locator('#lifecycle-now').textContent())
      .toBe('Lifecycle: pending orders ship between 10 s and 2 min after they are loaded, reset or added.')
  })

  test('without a lifecycle the panel says so, and a bad duration shows its message next to the clock', async () => {
    const { page } = await open()
    await expect
      .poll(() => page.locator('#lifecycle-now').textContent())
      .toBe('Lifecycle: none (orders change only when someone changes them).')
    await page.getByLabel('Advance by').fill('soon')
    await page.getByRole('button', { name: 'Advance clock' }).click()
    await expect.poll(() => page.locator('#clock-error').textContent()).toContain('advance must be a duration')
    expect(await page.locator('#clock-now').textContent()).toContain('not advanced')
  })

  test('the requests table fits its column at 1280 px, with long paths and many rows', async () => {
    const { origin, page } = await open()
    const paths = ['/v1/store/orders/9223372036854775807', `/v1/store/orders/${'9'.repeat(120)}`, `/v1/${'a'.repeat(150)}`]
    for (let i = 0; i < 30; i++) await fetch(`${origin}${paths[i % paths.length]}`, { method: 'DELETE', headers: AUTH })
    await expect.poll(() => page.locator('#requests tr').count()).toBe(30)
    const widths = await page.evaluate(() => {
      const table = document.getElementById('requests-table') as HTMLElement
      const section = table.closest('section') as HTMLElement
      return {
        table: table.scrollWidth,
        section: section.scrollWidth,
        column: section.clientWidth,
        page: document.documentElement.scrollWidth,
      }
    })
    expect(widths.table).toBeLessThanOrEqual(widths.column)
    expect(widths.section).toBeLessThanOrEqual(widths.column)
    expect(widths.page).toBeLessThanOrEqual(1280)
  })

  test('asks once for the admin token when the server requires one, and keeps it for the tab', async () => {
    const { page } = await open({ adminToken: 'sesame' })
    await page.getByLabel('Admin token').fill('sesame')
    await page.getByRole('button', { name: 'Use token' }).click()
    await expect.poll(() => statusOf(page, 1).textContent()).toBe('pending')
    expect(await page.evaluate(() => sessionStorage.getItem('petstore-sim-admin-token'))).toBe('sesame')
    await page.reload()
    await expect.poll(() => statusOf(page, 1).textContent()).toBe('pending')
    expect(await page.locator('#token-form').isHidden()).toBe(true)
  })

  test('a lost connection shows a banner and reconnects by itself', async () => {
    const { server, page } = await open()
    await expect.poll(() => statusOf(page, 1).textContent()).toBe('pending')
    const { port } = server
    await server.close()
    servers.splice(servers.indexOf(server), 1)
    await expect.poll(() => page.locator('#banner').textContent()).toContain('reconnecting')
    const again = await startSimulatorServer({ port, host: '127.0.0.1', scenario: 'shipped' })
    servers.push(again)
    // The panel retries on the machine's clock, backing off to every 4 s: a bound for that on a busy machine.
    await expect.poll(() => page.locator('#banner').isHidden(), { timeout: 30_000 }).toBe(true)
    await expect.poll(() => statusOf(page, 1).textContent()).toBe('shipped')
  })

  test.each(['light', 'dark'] as const)(
    'axe finds no serious or critical violation (%s); a screenshot is left in test-results/',
    async (scheme) => {
      const { origin, page } = await open({}, scheme, true)
      await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: AUTH })
      await fetch(`${origin}/__sim/faults`, { method: 'POST', body: '{"operation":"listOrders","kind":"network","times":1}' })
      await expect.poll(() => page.locator('#requests tr').count()).toBe(1)
      await expect.poll(() => page.locator('#faults button').count()).toBe(1)
      await page.screenshot({ path: join(ARTIFACTS, `panel-${scheme}.png`), fullPage: true })
      await page.addScriptTag({ content: AXE })
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string; help: string }[] }> } }).axe
        return (await axe.run()).violations.map(({ id, impact, help }) => ({ id, impact, help }))
      })
      expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([])
    },
  )
})
