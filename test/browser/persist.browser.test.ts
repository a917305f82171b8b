import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createSimulatorApp } from '../../src/server.js'
import { explainBrowserSkip, launchChromium, SKIP_BROWSER_TESTS } from '../support/chromium.js'
import { listen, type Listening, useAdminApi } from '../support/serve.js'

// Each test drives Chromium through a page: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

const API = 'https://api.petstore.example/v1'
const STORAGE_KEY = 'petstore-orders-simulator:state'

explainBrowserSkip("the Chromium tests of persist: 'session'")

interface Tab {
  page: Page
  /** What the page printed with console.warn, in order. */
  warnings: string[]
}

/** The demo page with `persist: 'session'`, ready: its first list is shown. */
async function openPersisting(context: BrowserContext, origin: string): Promise<Tab> {
  const page = await context.newPage()
  const warnings: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text())
  })
  await page.goto(`${origin}/__sim/demo/?persist`)
  await page.locator('body[data-ready="true"]').waitFor({ timeout: 20_000 })
  return { page, warnings }
}

async function reload(tab: Tab): Promise<void> {
  await tab.page.reload()
  await tab.page.locator('body[data-ready="true"]').waitFor({ timeout: 20_000 })
}

const statusOf = (page: Page, id: number) => page.locator(`tr[data-order-id="${id}"] td[data-status]`)

/** What the page's own fetch gets for a cancel: the status and the Error code. */
function cancelFromPage(page: Page, id: number): Promise<string> {
  return page.evaluate(
    async ([api, orderId]) => {
      const response = await fetch(`${api}/store/orders/${orderId}`, {
        method: 'DELETE',
        headers: { Authorization: 'Bearer petstore-test-key' },
      })
      return response.status === 204 ? '204' : `${response.status} ${((await response.json()) as { code: string }).code}`
    },
    [API, id] as const,
  )
}

describe.skipIf(SKIP_BROWSER_TESTS)("persist: 'session' in Chromium: the tab's state across reloads", () => {
  // The server's admin app (express, which serves the pages) loads in set-up, not in the first test's page.
  useAdminApi()
  let browser: Browser
  let server: Listening

  beforeAll(async () => {
    server = await listen(createSimulatorApp().app)
    browser = await launchChromium()
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  test('the scenario, the controls and the orders survive a reload; sim.reset() starts afresh', async () => {
    const context = await browser.newContext()
    const tab = await openPersisting(context, server.origin)
    await tab.page.locator('#scenario').selectOption('pending')
    await expect.poll(() => statusOf(tab.page, 1).textContent()).toBe('pending')
    await tab.page.locator('tr[data-order-id="1"] button').click()
    await expect.poll(() => statusOf(tab.page, 1).textContent()).toBe('cancelled')
    await tab.page.evaluate(() => {
      const sim = (window as unknown as { petstoreSim: import('../../src/browser.js').WorkerSimulator }).petstoreSim
      sim.addFault({ operation: 'cancelOrder', kind: 'status', status: 503, times: 1 })
      sim.setLatency({ listOrders: { min: 0, max: 5 } })
    })

    await reload(tab)
    expect(await tab.page.locator('#scenario').inputValue()).toBe('pending')
    expect(await statusOf(tab.page, 1).textContent()).toBe('cancelled')
    expect(await statusOf(tab.page, 2).textContent()).toBe('pending')
    const controls = await tab.page.evaluate(() => {
      const sim = (window as unknown as { petstoreSim: import('../../src/browser.js').WorkerSimulator }).petstoreSim
      return { latency: sim.latency(), faults: sim.faults().map(({ operation, status, remaining }) => ({ operation, status, remaining })) }
    })
    expect(controls).toEqual({
      latency: { listOrders: { min: 0, max: 5 } },
      faults: [{ operation: 'cancelOrder', status: 503, remaining: 1 }],
    })
    expect(await cancelFromPage(tab.page, 2)).toBe('503 service_unavailable')
    expect(await cancelFromPage(tab.page, 2)).toBe('204')

    // A reset clears what was kept: the next load is the scenario's start again. An answer just before
    // the reset may be announced by the worker just after it, and then the reset's own state is kept: never the state before.
    const keptAfterReset = await tab.page.evaluate(
      async ([api, key]) => {
        const sim = (window as unknown as { petstoreSim: import('../../src/browser.js').WorkerSimulator }).petstoreSim
        await fetch(`${api}/store/orders/3`, { method: 'DELETE', headers: { Authorization: 'Bearer petstore-test-key' } })
        await sim.reset()
        // Room for a late announcement to land, not a bound: what is read below may come before or after it.
        await new Promise((resolve) => setTimeout(resolve, 200))
        return sessionStorage.getItem(key)
      },
      [API, STORAGE_KEY] as const,
    )
    const kept =
      keptAfterReset === null
        ? null
        : (JSON.parse(keptAfterReset) as { scenario: string; faults: unknown[]; orders: { id: string; status: string }[] })
    expect(
      kept === null
        ? 'nothing'
        : { scenario: kept.scenario, faults: kept.faults, orders: kept.orders.map(({ id, status }) => `${id} ${status}`) },
    ).toSatisfy(
      (what) =>
        what === 'nothing' ||
        JSON.stringify(what) === JSON.stringify({ scenario: 'pending', faults: [], orders: ['1 pending', '2 pending', '3 pending'] }),
    )
    await reload(tab)
    expect(await tab.page.locator('#scenario').inputValue()).toBe('pending')
    expect(await statusOf(tab.page, 1).textContent()).toBe('pending')
    expect(await statusOf(tab.page, 2).textContent()).toBe('pending')
    expect(await tab.page.evaluate(() => (window as unknown as { petstoreSim: { faults(): unknown[] } }).petstoreSim.faults())).toEqual([])
    expect(tab.warnings).toEqual([])

    // Another tab has its own sessionStorage, so its own fresh state.
    const other = await openPersisting(await browser.newContext(), server.origin)
    expect(await other.page.locator('#scenario').inputValue()).toBe('default')
    await other.page.context().close()
    await context.close()
  }, 90_000)

  test('a stored state from an older version, or damaged, gives a fresh state and one console line', async () => {
    const context = await browser.newContext()
    await context.addInitScript((key) => {
      if (sessionStorage.getItem('seeded') === null) {
        sessionStorage.setItem('seeded', 'yes')
        sessionStorage.setItem(key, JSON.stringify({ format: 0, scenario: 'shipped', orders: 'from an older version' }))
      }
    }, STORAGE_KEY)
    const tab = await openPersisting(context, server.origin)
    expect(await tab.page.locator('#scenario').inputValue()).toBe('default')
    expect(await statusOf(tab.page, 1).textContent()).toBe('pending')
    expect(tab.warnings).toHaveLength(1)
    expect(tab.warnings[0]).toMatch(/persist: 'session': the stored state is not one this version reads .*starting from a fresh state/)
    await context.close()
  }, 60_000)

  test('a sessionStorage that throws, or is full, never breaks the page: one console line, and the page works', async () => {
    const disabled = await browser.newContext()
    await disabled.addInitScript(() => {
      Object.defineProperty(window, 'sessionStorage', {
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError')
        },
      })
    })
    const tab = await openPersisting(disabled, server.origin)
    expect(await statusOf(tab.page, 1).textContent()).toBe('pending')
    expect(await cancelFromPage(tab.page, 1)).toBe('204')
    expect(tab.warnings).toEqual([
      `[petstore-orders-simulator] persist: 'session': sessionStorage cannot be used in this page; the state is not kept across reloads.`,
    ])
    await disabled.close()

    const full = await browser.newContext()
    await full.addInitScript(() => {
      Storage.prototype.setItem = () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
      }
    })
    const fullTab = await openPersisting(full, server.origin)
    expect(await cancelFromPage(fullTab.page, 1)).toBe('204')
    expect(await cancelFromPage(fullTab.page, 2)).toBe('204')
    await expect.poll(() => fullTab.warnings.length).toBe(1)
    expect(fullTab.warnings[0]).toMatch(/sessionStorage refused the state \(QuotaExceededError\); it is no longer kept/)
    await reload(fullTab)
    expect(await statusOf(fullTab.page, 1).textContent()).toBe('pending')
    await full.close()
  }, 60_000)

  test('past 1 MiB the state is no longer kept, said once; the simulator goes on', async () => {
    const context = await browser.newContext()
    const tab = await openPersisting(context, server.origin)
    await tab.page.evaluate(async () => {
      const sim = (window as unknown as { petstoreSim: import('../../src/browser.js').WorkerSimulator }).petstoreSim
      for (let id = 1000; id < 12_000; id++)
        await sim.addOrder({ id, status: 'pending', shipDate: '2026-01-01T00:00:00.000Z', petId: id, quantity: 1 })
    })
    expect(await cancelFromPage(tab.page, 1000)).toBe('204')
    expect(await cancelFromPage(tab.page, 1001)).toBe('204')
    await expect.poll(() => tab.warnings.length).toBe(1)
    expect(tab.warnings[0]).toMatch(/the state is \d+ bytes, past the 1048576-byte bound; it is no longer kept across reloads in this tab/)
    expect(await tab.page.evaluate((key) => sessionStorage.getItem(key), STORAGE_KEY)).toBeNull()
    await reload(tab)
    expect(await statusOf(tab.page, 1).textContent()).toBe('pending')
    expect(await tab.page.locator('tr[data-order-id="1000"]').count()).toBe(0)
    await context.close()
  }, 90_000)
})
