import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { type RunningSimulator, startSimulatorServer } from '../../src/server.js'
import { explainBrowserSkip, launchChromium, SKIP_BROWSER_TESTS } from '../support/chromium.js'
import { useAdminApi } from '../support/serve.js'

// Each test drives Chromium through a page: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

const AUTH = { Authorization: 'Bearer petstore-test-key' }
/** What the panel says beside "never" for a cancel never answered 204: the recipe GET /__sim/coverage gives. */
const PROVOKE_204 = 'Reset to scenario pending, then DELETE /v1/store/orders/1 with the key: order 1 is pending.'
const PROVOKE_LIST = 'Reset to scenario default, then GET /v1/store/orders with the key: scenario default holds orders.'

explainBrowserSkip("the Chromium tests of the QA panel's coverage")

/** An outcome's row as the panel shows it: id, mark, count, and for one never seen how to provoke it. */
const outcomeOf = (page: Page, id: string) =>
  page.getByRole('table', { name: 'Outcomes' }).locator(`tr[data-outcome-id="${id}"] td`).allTextContents()
/** The summary line, on the server's page or in a corner panel. */
const summaryOf = (root: Page | Locator) => root.getByRole('region', { name: 'Coverage' }).getByRole('status').textContent()
const counts = (page: Page) => page.locator('#coverage tr td:nth-child(3)').allTextContents()

describe.skipIf(SKIP_BROWSER_TESTS)('the coverage section of the QA panel at /__sim/ in Chromium', () => {
  // The server's admin app (express, which serves the pages) loads in set-up, not in the first test's page.
  useAdminApi()
  let browser: Browser
  const servers: RunningSimulator[] = []

  beforeAll(async () => {
    browser = await launchChromium()
  }, 60_000)
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })
  afterAll(async () => {
    await browser?.close()
  })

  async function serve() {
    const server = await startSimulatorServer({ port: 0, host: '127.0.0.1', scenario: 'pending' })
    servers.push(server)
    return new URL(server.url).origin
  }

  async function open() {
    const origin = await serve()
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } })
    const page = await context.newPage()
    await page.goto(`${origin}/__sim/`)
    await expect.poll(() => summaryOf(page)).toBe('0 of 12 (0%) outcomes exercised')
    return { origin, page }
  }

  test('marks each outcome as it is answered, live, and Start coverage over does so', async () => {
    const { origin, page } = await open()
    expect(await page.getByRole('heading', { name: 'Coverage', exact: true }).count()).toBe(1)
    expect((await fetch(`${origin}/v1/store/orders`, { headers: AUTH })).status).toBe(200)
    // Seen: the recipe beside it is gone.
    await expect.poll(() => outcomeOf(page, 'listOrders.200')).toEqual(['listOrders.200', '✓ seen', '1', ''])
    expect(await outcomeOf(page, 'cancelOrder.204')).toEqual(['cancelOrder.204', 'never', '0', PROVOKE_204])
    expect(await summaryOf(page)).toBe('1 of 12 (8.3%) outcomes exercised')
    // The tick is for the eye only: a screen reader says "seen".
    const seen = page.locator('tr[data-outcome-id="listOrders.200"]').getByRole('cell', { name: 'seen', exact: true })
    expect(await seen.count()).toBe(1)

    const badKey = { Authorization: 'Bearer wrong-key' }
    expect((await fetch(`${origin}/v1/store/orders`, { headers: badKey })).status).toBe(401)
    await expect.poll(() => outcomeOf(page, 'listOrders.401.unauthorized')).toEqual(['listOrders.401.unauthorized', '✓ seen', '1', ''])
    expect(await summaryOf(page)).toBe('2 of 12 (16.6%) outcomes exercised')
    // Every documented outcome has its row, in the document's order.
    expect(await page.locator('#coverage tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-outcome-id')))).toEqual(
      ((await (await fetch(`${origin}/__sim/coverage`)).json()) as { outcomes: { id: string }[] }).outcomes.map(({ id }) => id),
    )

    await page.getByRole('button', { name: 'Start coverage over' }).click()
    await expect.poll(() => summaryOf(page)).toBe('0 of 12 (0%) outcomes exercised')
    expect(await counts(page)).toEqual(Array(12).fill('0'))
    expect(await outcomeOf(page, 'listOrders.200')).toEqual(['listOrders.200', 'never', '0', PROVOKE_LIST])
    expect(((await (await fetch(`${origin}/__sim/coverage`)).json()) as { exercised: number }).exercised).toBe(0)
  })

  test("a session picked in the panel shows that session's coverage, not the default state's", async () => {
    const { origin, page } = await open()
    const session = { ...AUTH, 'X-Sim-Session': 'qa-1' }
    expect((await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: session })).status).toBe(204)
    await page.getByRole('combobox', { name: 'Session' }).selectOption('qa-1')
    await expect.poll(() => outcomeOf(page, 'cancelOrder.204')).toEqual(['cancelOrder.204', '✓ seen', '1', ''])
    expect(await summaryOf(page)).toBe('1 of 12 (8.3%) outcomes exercised')
    // The default state answered nothing; back on it, nothing is seen.
    await page.getByRole('combobox', { name: 'Session' }).selectOption('')
    await expect.poll(() => outcomeOf(page, 'cancelOrder.204')).toEqual(['cancelOrder.204', 'never', '0', PROVOKE_204])
    expect(await summaryOf(page)).toBe('0 of 12 (0%) outcomes exercised')
  })

  test('an answer a fault provoked shows under "Provoked with controls", and a deprecated call is called out', async () => {
    const { origin, page } = await open()
    const provoked = page.getByRole('table', { name: 'Provoked with controls' })
    expect(await provoked.isHidden()).toBe(true)
    const fault = { method: 'POST', body: '{"operation":"listOrders","kind":"status","status":503}' }
    expect((await fetch(`${origin}/__sim/faults`, fault)).status).toBe(201)
    expect((await fetch(`${origin}/v1/store/orders`, { headers: AUTH })).status).toBe(503)
    await expect.poll(() => provoked.locator('tbody td').allTextContents()).toEqual(['fault', 'listOrders.503.service_unavailable', '1'])
    // A provoked answer is not one of the service's own outcomes.
    expect(await outcomeOf(page, 'listOrders.200')).toEqual(['listOrders.200', 'never', '0', PROVOKE_LIST])
    expect(await summaryOf(page)).toBe('0 of 12 (0%) outcomes exercised')

    expect((await fetch(`${origin}/v1/pets/1`, { headers: AUTH })).status).toBe(404)
    await expect
      .poll(() => page.locator('#deprecated').textContent())
      .toBe('GET /pets/{petId} is deprecated (sunset 2027-01-01): called 1 time.')
  })

  test("the demo page's corner panel shows the in-page simulator's coverage under the same names", async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage()
    await page.goto(`${await serve()}/__sim/demo/?devtools`)
    await page.locator('body[data-ready="true"]').waitFor({ timeout: 20_000 })
    const panel = page.locator('petstore-sim-devtools')
    await panel.getByRole('button', { name: 'Petstore simulator' }).click()
    expect(await panel.getByRole('heading', { name: 'Coverage', exact: true }).count()).toBe(1)
    const outcome = (id: string) =>
      panel.getByRole('table', { name: 'Outcomes' }).locator(`tr[data-outcome-id="${id}"] td`).allTextContents()
    // The page's own first list, then a cancel clicked in the app.
    await expect.poll(() => outcome('listOrders.200')).toEqual(['listOrders.200', '✓ seen', '1', ''])
    // In the page too, how to provoke an outcome never seen, under the in-page simulator's base path.
    expect(await outcome('cancelOrder.204')).toEqual(['cancelOrder.204', 'never', '0', PROVOKE_204])
    await page.locator('#orders tr[data-order-id="2"] button').click()
    await expect.poll(() => outcome('cancelOrder.204')).toEqual(['cancelOrder.204', '✓ seen', '1', ''])
    await panel.getByRole('button', { name: 'Start coverage over' }).click()
    await expect.poll(() => summaryOf(panel)).toBe('0 of 12 (0%) outcomes exercised')
    expect(await outcome('listOrders.200')).toEqual(['listOrders.200', 'never', '0', PROVOKE_LIST])
  })
})
