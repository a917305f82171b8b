import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createSimulatorApp } from '../../src/server.js'
import { explainBrowserSkip, launchChromium, SKIP_BROWSER_TESTS } from '../support/chromium.js'
import { ROOT } from '../support/cli-process.js'
import { listen, type Listening, useAdminApi } from '../support/serve.js'

// Each test drives Chromium through a page: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

const ARTIFACTS = join(ROOT, 'test-results')
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')
/** `DEVTOOLS_SCREENSHOT=1 npx vitest run test/browser/devtools.browser.test.ts` rewrites the README's picture. */
const README_SCREENSHOT = join(ROOT, 'docs/devtools-panel.png')

explainBrowserSkip('the Chromium tests of the in-page devtools panel')

/** Loads the demo page (with `?devtools` or without) and records every URL the page asks for. */
async function openDemo(context: BrowserContext, origin: string, query: string): Promise<{ page: Page; fetched: string[] }> {
  const page = await context.newPage()
  const fetched: string[] = []
  page.on('request', (request) => fetched.push(request.url()))
  await page.goto(`${origin}/__sim/demo/${query}`)
  await page.locator('body[data-ready="true"]').waitFor({ timeout: 20_000 })
  return { page, fetched }
}

/** `createSimulator` and `mountDevtools` from the sources, as one script a page can take. */
async function bundleMountDevtools(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { createSimulator } from './src/browser.ts'
        import { mountDevtools } from './src/devtools/mount-devtools.ts'
        Object.assign(globalThis, { createSimulator, mountDevtools })`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  })
  return result.outputFiles[0]?.text ?? ''
}

/** The panel's host; Playwright's locators reach into its open shadow root. */
const panelOf = (page: Page) => page.locator('petstore-sim-devtools')
const toggleOf = (page: Page) => panelOf(page).getByRole('button', { name: 'Petstore simulator' })
const panelStatusOf = (panel: Locator, id: number) => panel.locator(`tr[data-order-id="${id}"] td`).nth(5)
const appStatusOf = (page: Page, id: number) => page.locator(`#orders tr[data-order-id="${id}"] td[data-status]`)
const lastRequest = (panel: Locator) => panel.getByRole('table', { name: 'Last requests' }).locator('tbody tr').first().locator('td')
const message = (page: Page) => page.locator('#message').textContent()

async function openPanel(page: Page): Promise<Locator> {
  await toggleOf(page).click()
  expect(await toggleOf(page).getAttribute('aria-expanded')).toBe('true')
  return panelOf(page)
}

/** The element focused inside the panel's shadow root (the page only sees the host), as its tag, name and text. */
const focusedInPanel = (page: Page) =>
  page.evaluate(() => {
    const active = document.querySelector('petstore-sim-devtools')?.shadowRoot?.activeElement
    return active ? `${active.tagName.toLowerCase()} ${active.getAttribute('aria-label') ?? active.textContent?.trim()}` : null
  })

describe.skipIf(SKIP_BROWSER_TESTS)('the in-page devtools panel on the demo page (?devtools) in Chromium', () => {
  // The server's admin app (express, which serves the pages) loads in set-up, not in the first test's page.
  useAdminApi()
  let browser: Browser
  let server: Listening
  let context: BrowserContext

  /** A page with no worker: the panel and a simulator, bundled from the sources once, for mountDevtools's own test. */
  let bundle: string

  // Set-up, with the hook's timeout (vitest.config.ts): the bundle, the server and the browser.
  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true })
    bundle = await bundleMountDevtools()
    server = await listen(createSimulatorApp().app)
    browser = await launchChromium()
  })

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  async function fresh(query = '?devtools', colorScheme: 'light' | 'dark' = 'light') {
    await context?.close()
    // bypassCSP: axe's script is injected into the page.
    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme, bypassCSP: true })
    return openDemo(context, server.origin, query)
  }

  test("without ?devtools there is no panel, and the panel's chunk is never fetched", async () => {
    const { page, fetched } = await fresh('')
    expect(await panelOf(page).count()).toBe(0)
    expect(fetched.filter((url) => url.includes('/__sim/demo/'))).not.toEqual([])
    expect(fetched.filter((url) => /mount-devtools-\w+\.js$/.test(url))).toEqual([])
  })

  test('with ?devtools the chunk is fetched and the panel starts collapsed: one button in the corner', async () => {
    const { page, fetched } = await fresh()
    expect(fetched.filter((url) => /\/__sim\/demo\/mount-devtools-\w+\.js$/.test(url))).toHaveLength(1)
    expect(await toggleOf(page).getAttribute('aria-expanded')).toBe('false')
    expect(await panelOf(page).getByRole('region', { name: 'Petstore simulator' }).isHidden()).toBe(true)
  })

  test("switching the scenario in the panel changes the panel's orders, and the app's list at its next refresh", async () => {
    const { page } = await fresh()
    const panel = await openPanel(page)
    await expect.poll(() => panelStatusOf(panel, 1).textContent()).toBe('pending')
    await panel.getByRole('combobox', { name: 'Scenario to load' }).selectOption('shipped')
    await panel.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => panelStatusOf(panel, 1).textContent()).toBe('shipped')
    expect(await panel.getByText(/^Now: shipped/).count()).toBe(1)
    // The app still shows what it fetched before; its next list (after a cancel) is the new scenario's.
    expect(await appStatusOf(page, 1).textContent()).toBe('pending')
    await page.locator('#cancel-by-id input').fill('1')
    await page.locator('#cancel-by-id button').click()
    await expect.poll(() => message(page)).toBe('409 order_already_shipped: Order 1 has already shipped and cannot be cancelled.')
    await expect.poll(() => appStatusOf(page, 1).textContent()).toBe('shipped')
    expect(await page.locator('#orders tr[data-order-id]').count()).toBe(await panel.locator('tr[data-order-id]').count())
  })

  test("the app's requests show in the panel's last requests as they happen, newest first", async () => {
    const { page } = await fresh()
    const panel = await openPanel(page)
    // The page's own first list.
    await expect
      .poll(() => lastRequest(panel).allTextContents())
      .toEqual([expect.any(String), 'GET', '/v1/store/orders', '200', expect.any(String), 'listOrders', ''])
    await page.locator('#orders tr[data-order-id="2"] button').click()
    await expect.poll(() => message(page)).toBe('Order 2 cancelled.')
    // Nothing clicked in the panel: it follows the simulator by itself (a look every 250 ms of the page's clock; how
    // soon is the machine's speed, so the bound is the poll's own, sized for a busy machine).
    const rows = panel.getByRole('table', { name: 'Last requests' }).locator('tbody tr')
    await expect.poll(() => rows.count()).toBe(3)
    expect((await rows.nth(1).locator('td').allTextContents()).slice(1, 4)).toEqual(['DELETE', '/v1/store/orders/2', '204'])
    await expect.poll(() => panelStatusOf(panel, 2).textContent()).toBe('cancelled')
    await panel.getByRole('button', { name: 'Clear requests' }).click()
    await expect.poll(() => rows.allTextContents()).toEqual(['None yet.'])
  })

  test("a fault preset makes the app's next cancel answer 503; removing it lets the cancel through", async () => {
    const { page } = await fresh()
    const panel = await openPanel(page)
    await panel.getByRole('button', { name: 'Next 2 cancels answer 503' }).click()
    const remove = panel.getByRole('button', { name: /^Remove fault \d+$/ })
    await remove.waitFor()
    await page.locator('#orders tr[data-order-id="1"] button').click()
    await expect.poll(() => message(page)).toMatch(/^503 service_unavailable: /)
    await expect.poll(() => panel.getByRole('list', { name: 'Active faults' }).textContent()).toContain('1 more time')
    expect((await lastRequest(panel).allTextContents()).slice(1, 4)).toEqual(['GET', '/v1/store/orders', '200'])
    await remove.click()
    await expect.poll(() => panel.getByRole('list', { name: 'Active faults' }).textContent()).toBe('None.')
    await page.locator('#orders tr[data-order-id="1"] button').click()
    await expect.poll(() => message(page)).toBe('Order 1 cancelled.')
    await expect.poll(() => panelStatusOf(panel, 1).textContent()).toBe('cancelled')
  })

  test("a latency set in the panel delays the app's requests; No latency turns it off; a bad one is refused beside it", async () => {
    const { page } = await fresh()
    const panel = await openPanel(page)
    await panel.getByLabel('All operations').fill('400')
    await panel.getByRole('button', { name: 'Set latency' }).click()
    await expect.poll(() => panel.getByText(/^Now: all/).textContent()).toBe('Now: all 400 ms.')
    await page.locator('#orders tr[data-order-id="3"] button').click()
    await expect.poll(() => message(page)).toBe('Order 3 cancelled.')
    // The page's first list, the cancel, and the list after it.
    const rows = panel.getByRole('table', { name: 'Last requests' }).locator('tbody tr')
    await expect.poll(() => rows.count()).toBe(3)
    const cancel = rows.nth(1).locator('td')
    expect((await cancel.allTextContents()).slice(1, 4)).toEqual(['DELETE', '/v1/store/orders/3', '204'])
    expect(Number(await cancel.nth(4).textContent())).toBeGreaterThanOrEqual(400)
    await panel.getByRole('button', { name: 'No latency' }).click()
    await expect.poll(() => panel.getByText(/^Now: none/).count()).toBe(1)
    await panel.getByLabel('All operations').fill('fast')
    await panel.getByRole('button', { name: 'Set latency' }).click()
    await expect.poll(() => panel.getByRole('alert').filter({ hasText: 'latency' }).count()).toBe(1)
    await expect.poll(() => panel.getByText(/^Now: none/).count()).toBe(1)
  })

  test("a row's Ship and Remove in the panel change the orders; the app's next list shows it", async () => {
    const { page } = await fresh()
    const panel = await openPanel(page)
    await panel.getByRole('button', { name: 'Ship order 4' }).click()
    await expect.poll(() => panelStatusOf(panel, 4).textContent()).toBe('shipped')
    expect(await panel.getByRole('button', { name: 'Cancel order 4' }).count()).toBe(0)
    await panel.getByRole('button', { name: 'Remove order 5' }).click()
    await expect.poll(() => panel.locator('tr[data-order-id="5"]').count()).toBe(0)
    // The app lists again after any cancel, here one of an order that does not exist.
    await page.locator('#cancel-by-id input').fill('999')
    await page.locator('#cancel-by-id button').click()
    await expect.poll(() => message(page)).toBe('404 order_not_found: Order 999 was not found.')
    await expect.poll(() => appStatusOf(page, 4).textContent()).toBe('shipped')
    expect(await page.locator('#orders tr[data-order-id="5"]').count()).toBe(0)
  })

  test('works from the keyboard alone: Tab to the toggle, open it, load a scenario with Enter, add a fault with Space, remove it with Enter, Escape closes', async () => {
    const { page } = await fresh()
    for (let presses = 0; presses < 60 && (await focusedInPanel(page)) === null; presses++) await page.keyboard.press('Tab')
    expect(await focusedInPanel(page)).toBe('button Petstore simulator')
    await page.keyboard.press('Enter')
    expect(await toggleOf(page).getAttribute('aria-expanded')).toBe('true')
    await page.keyboard.press('Tab')
    expect(await focusedInPanel(page)).toMatch(/^select /)
    await page.keyboard.press('End')
    // The seed, then Apply.
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    expect(await focusedInPanel(page)).toBe('button Apply')
    await page.keyboard.press('Enter')
    const panel = panelOf(page)
    await expect.poll(() => panel.getByText(/^Now: slow-cancel/).count()).toBe(1)
    // Reset; the save form's Name, Description, Overwrite and Download (Save as scenario is disabled: a page has no folder); the presets.
    for (let presses = 0; presses < 6; presses++) await page.keyboard.press('Tab')
    expect(await focusedInPanel(page)).toBe('button Next 2 cancels answer 503')
    await page.keyboard.press('Space')
    await panel.getByRole('button', { name: /^Remove fault \d+$/ }).waitFor()
    // The focus ring shows where the keyboard is.
    expect(
      await page.evaluate(() => {
        const active = document.querySelector('petstore-sim-devtools')?.shadowRoot?.activeElement as HTMLElement
        return getComputedStyle(active).outlineStyle
      }),
    ).toBe('solid')
    // Remove fault, from the keyboard: the focus goes back to the presets rather than being lost.
    for (let presses = 0; presses < 10 && !/^button Remove fault/.test(String(await focusedInPanel(page))); presses++)
      await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await expect.poll(() => panel.getByRole('list', { name: 'Active faults' }).textContent()).toBe('None.')
    expect(await focusedInPanel(page)).toBe('button Next 2 cancels answer 503')
    await page.keyboard.press('Escape')
    expect(await toggleOf(page).getAttribute('aria-expanded')).toBe('false')
    expect(await focusedInPanel(page)).toBe('button Petstore simulator')
  })

  test.each(['light', 'dark'] as const)('axe finds no serious or critical violation in the open panel (%s)', async (scheme) => {
    const { page } = await fresh('?devtools', scheme)
    const panel = await openPanel(page)
    await panel.getByRole('button', { name: 'Next 2 cancels answer 503' }).click()
    await page.locator('#orders tr[data-order-id="1"] button').click()
    await expect.poll(() => panel.getByRole('table', { name: 'Last requests' }).locator('tbody tr').count()).toBe(3)
    // The app's list from the top, beside the panel.
    await page.evaluate(() => window.scrollTo(0, 0))
    await page.screenshot({ path: join(ARTIFACTS, `devtools-${scheme}.png`) })
    if (scheme === 'light' && process.env['DEVTOOLS_SCREENSHOT'] === '1') await page.screenshot({ path: README_SCREENSHOT })
    await page.addScriptTag({ content: AXE })
    const violations = await page.evaluate(async () => {
      type Axe = { run(context: unknown): Promise<{ violations: { id: string; impact: string; help: string }[] }> }
      const axe = (window as unknown as { axe: Axe }).axe
      return (await axe.run({ include: [['petstore-sim-devtools']] })).violations.map(({ id, impact, help }) => ({ id, impact, help }))
    })
    expect(violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([])
  })

  test("no style crosses the shadow root: the page's button rule leaves the panel alone, and the panel's leave the page's", async () => {
    const style = (target: Locator) =>
      target.evaluate((element) => {
        const { color, fontSize, fontFamily, borderRadius, padding } = getComputedStyle(element)
        return { color, fontSize, fontFamily, borderRadius, padding }
      })
    const without = await fresh('')
    const pageButton = await style(without.page.locator('#cancel-by-id button'))
    const { page } = await fresh()
    const apply = (await openPanel(page)).getByRole('button', { name: 'Apply' })
    expect(await style(page.locator('#cancel-by-id button'))).toEqual(pageButton)
    const panelButton = await style(apply)
    await page.addStyleTag({
      content: 'button { color: rgb(255, 0, 0) !important; font-size: 30px !important } body { font-family: serif }',
    })
    expect(await style(page.locator('#cancel-by-id button'))).toMatchObject({ color: 'rgb(255, 0, 0)', fontSize: '30px' })
    expect(await style(apply)).toEqual(panelButton)
    expect(panelButton.color).not.toBe('rgb(255, 0, 0)')
  })

  test('mountDevtools on its own: open at once in the container given; closed or unmounted, it stops watching the simulator', async () => {
    const { page } = await fresh('')
    await page.addScriptTag({ content: bundle })
    // The page's timers on a clock the test moves: the panel's look every 250 ms, counted, not raced against.
    await page.clock.install()
    const mounted = await page.evaluate(() => {
      type Sim = { latency(): unknown; addFault(fault: object): unknown }
      const { createSimulator, mountDevtools } = globalThis as unknown as {
        createSimulator(options: object): Sim
        mountDevtools(sim: Sim, options: object): { element: HTMLElement; setOpen(open: boolean): void; unmount(): void }
      }
      const sim = createSimulator({ scenario: 'shipped' })
      const looked = { count: 0 }
      const latency = sim.latency.bind(sim)
      sim.latency = () => {
        looked.count++
        return latency()
      }
      const container = document.createElement('div')
      container.id = 'devtools-home'
      document.body.append(container)
      const handle = mountDevtools(sim, { open: true, container })
      Object.assign(globalThis, { mounted: { sim, handle, looked } })
      return {
        inContainer: handle.element.parentElement === container,
        rows: handle.element.shadowRoot?.querySelectorAll('tr[data-order-id]').length,
      }
    })
    type Mounted = {
      sim: { addFault(fault: object): unknown }
      handle: { setOpen(open: boolean): void; unmount(): void }
      looked: { count: number }
    }
    const looks = () => page.evaluate(() => (globalThis as unknown as { mounted: Mounted }).mounted.looked.count)
    const step = (what: 'close' | 'unmount') =>
      page.evaluate((action) => {
        const { sim, handle } = (globalThis as unknown as { mounted: Mounted }).mounted
        if (action === 'close') return handle.setOpen(false)
        handle.setOpen(true)
        handle.unmount()
        sim.addFault({ operation: 'cancelOrder', kind: 'status' })
      }, what)
    const before = await looks()
    await page.clock.runFor(600)
    const looksOpen = (await looks()) - before
    await step('close')
    const closed = await looks()
    await page.clock.runFor(600)
    const lookedClosed = (await looks()) - closed
    await step('unmount')
    const after = await looks()
    await page.clock.runFor(600)
    const seen = {
      ...mounted,
      looksOpen,
      lookedClosed,
      stillLooking: (await looks()) - after,
      left: await page.evaluate(() => document.querySelectorAll('petstore-sim-devtools').length),
    }
    // Three shipped orders; it looked every 250 ms while open (twice in 600 ms), never while closed or after unmount.
    expect(seen).toMatchObject({ inContainer: true, rows: 3, lookedClosed: 0, stillLooking: 0, left: 0 })
    expect(seen.looksOpen).toBeGreaterThanOrEqual(2)
  })
})
