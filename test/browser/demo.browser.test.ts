import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { BUILTIN_SCENARIOS } from '../../src/index.js'
import { createSimulatorApp } from '../../src/server.js'
import { explainBrowserSkip, launchChromium, SKIP_BROWSER_TESTS } from '../support/chromium.js'
import { ROOT } from '../support/cli-process.js'
import { listen, type Listening, useAdminApi } from '../support/serve.js'

// Each test drives Chromium through a page: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

const ARTIFACTS = join(ROOT, 'test-results')
const API = 'https://api.petstore.example/v1'

explainBrowserSkip('the Chromium tests of the demo page')

interface ApiResponse {
  method: string
  url: string
  status: number
  fromServiceWorker: boolean
}

/** Loads the demo in a new tab and records every response to the API's address. */
async function openDemo(context: BrowserContext, origin: string): Promise<{ page: Page; responses: ApiResponse[] }> {
  const page = await context.newPage()
  const responses: ApiResponse[] = []
  page.on('response', (response) => {
    if (response.url().startsWith(API)) {
      responses.push({
        method: response.request().method(),
        url: response.url(),
        status: response.status(),
        fromServiceWorker: response.fromServiceWorker(),
      })
    }
  })
  await page.goto(`${origin}/__sim/demo/`)
  await page.locator('body[data-ready="true"]').waitFor({ timeout: 20_000 })
  return { page, responses }
}

const statusOf = (page: Page, id: number) => page.locator(`tr[data-order-id="${id}"] td[data-status]`)

describe.skipIf(SKIP_BROWSER_TESTS)('the demo page in Chromium, answered by the service worker', () => {
  // The server's admin app (express, which serves the pages) loads in set-up, not in the first test's page.
  useAdminApi()
  let browser: Browser
  let server: Listening
  const { app, sim: serverSimulator } = createSimulatorApp()

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true })
    server = await listen(app)
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  test('lists, cancels, refuses a shipped order, a missing one and a bad key, all from the service worker', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } })
    const { page, responses } = await openDemo(context, server.origin)

    expect(await page.locator('tr[data-order-id]').count()).toBeGreaterThanOrEqual(12)
    await expect.poll(() => statusOf(page, 1).textContent()).toBe('pending')

    await page.locator('tr[data-order-id="1"] button').click()
    await expect.poll(() => statusOf(page, 1).textContent()).toBe('cancelled')
    await expect.poll(() => page.locator('#message').textContent()).toBe('Order 1 cancelled.')
    await page.screenshot({ path: join(ARTIFACTS, 'demo-after-cancel.png'), fullPage: true })

    // A shipped or cancelled order has no cancel button; cancelling one by id shows the 409.
    expect(await page.locator('tr[data-order-id="5"] button').count()).toBe(0)
    expect(await page.locator('tr[data-order-id="1"] button').count()).toBe(0)
    await page.locator('#cancel-by-id input').fill('5')
    await page.locator('#cancel-by-id button').click()
    await expect
      .poll(() => page.locator('#message').textContent())
      .toBe('409 order_already_shipped: Order 5 has already shipped and cannot be cancelled.')
    expect(await statusOf(page, 5).textContent()).toBe('shipped')

    // An empty id sends nothing (it used to send DELETE /store/orders/, a 405).
    await page.locator('#cancel-by-id input').fill('')
    await page.locator('#cancel-by-id button').click()
    await expect.poll(() => page.locator('#message').textContent()).toBe('Enter the id of the order to cancel.')

    // The picker offers every built-in scenario.
    expect(await page.locator('#scenario option').allTextContents()).toEqual(Object.keys(BUILTIN_SCENARIOS))
    await page.locator('#cancel-by-id input').fill('999')
    await page.locator('#cancel-by-id button').click()
    await expect.poll(() => page.locator('#message').textContent()).toBe('404 order_not_found: Order 999 was not found.')

    await page.locator('#scenario').selectOption('bad-key')
    await expect.poll(() => page.locator('#message').textContent()).toBe('401 unauthorized: Invalid API key: this scenario accepts no key.')
    expect(await page.locator('tr[data-order-id]').count()).toBe(0)
    await page.screenshot({ path: join(ARTIFACTS, 'demo-bad-key.png'), fullPage: true })

    expect(responses.map(({ method, status }) => `${method} ${status}`)).toEqual([
      'GET 200',
      'DELETE 204',
      'GET 200',
      'DELETE 409',
      'GET 200',
      'DELETE 404',
      'GET 200',
      'GET 401',
    ])
    expect(responses.every((response) => response.fromServiceWorker)).toBe(true)
    // Nothing reached the standalone server's own simulator: the browser answered itself.
    expect(serverSimulator.journal.entries().filter((entry) => entry.path.startsWith('/v1/'))).toEqual([])
    await context.close()
  }, 60_000)

  test('two tabs of one browser run independent simulators: a cancel in one is not seen in the other', async () => {
    // One context: the tabs share storage and BroadcastChannel, as a developer's tabs do.
    const context = await browser.newContext()
    const first = await openDemo(context, server.origin)
    const second = await openDemo(context, server.origin)

    await first.page.locator('tr[data-order-id="2"] button').click()
    await expect.poll(() => statusOf(first.page, 2).textContent()).toBe('cancelled')

    const seenBySecond = await second.page.evaluate(async (api) => {
      const response = await fetch(`${api}/store/orders`, { headers: { Authorization: 'Bearer petstore-test-key' } })
      return ((await response.json()) as { id: number; status: string }[]).find((order) => order.id === 2)?.status
    }, API)
    expect(seenBySecond).toBe('pending')
    await context.close()
  }, 60_000)

  test('a page on a built-in scenario never loads faker, and sim.fetch answers in the page; another seed loads faker', async () => {
    const context = await browser.newContext()
    const scripts: string[] = []
    context.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
    })
    const { page } = await openDemo(context, server.origin)
    const generator = (path: string) => /generate-orders/.test(path)
    for (const name of Object.keys(BUILTIN_SCENARIOS))
      await page.evaluate(
        (scenario) => (window as unknown as { petstoreSim: { reset(name: string): Promise<void> } }).petstoreSim.reset(scenario),
        name,
      )
    const viaFetch = await page.evaluate(async (api) => {
      type Sim = { reset(name: string): Promise<void>; fetch: typeof fetch }
      const sim = (window as unknown as { petstoreSim: Sim }).petstoreSim
      await sim.reset('default')
      const response = await sim.fetch(`${api}/store/orders`, { headers: { Authorization: 'Bearer petstore-test-key' } })
      return { status: response.status, orders: ((await response.json()) as unknown[]).length }
    }, API)
    expect(viaFetch).toEqual({ status: 200, orders: 21 })
    expect(scripts.length).toBeGreaterThan(0)
    expect(scripts.filter(generator)).toEqual([])

    await page.evaluate(() =>
      (window as unknown as { petstoreSim: { reset(name: string, options: { seed: number }): Promise<void> } }).petstoreSim.reset(
        'default',
        {
          seed: 7,
        },
      ),
    )
    expect(scripts.filter(generator)).toHaveLength(1)
    await context.close()
  }, 60_000)
})
