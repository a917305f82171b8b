import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createSimulatorApp, type RunningSimulator, startSimulatorServer } from '../../src/server.js'
import { explainBrowserSkip, launchChromium, SKIP_BROWSER_TESTS } from '../support/chromium.js'
import { listen, type Listening, useAdminApi } from '../support/serve.js'

// Each test drives Chromium through a page: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

explainBrowserSkip('the Chromium tests that run every panel control over both connections')

/** What a test reads of the simulator behind the panel, whichever connection the panel has. */
interface Controlled {
  orders: { id: number; status: string }[]
  faults: { operation: string; kind: string }[]
  latency: unknown
  rateLimit: unknown
  sessions: string[]
}

/** One place the panel lives: how to open it, and the simulator it steers (with its scenarios folder, where it has one). */
interface Connection {
  name: string
  open(context: BrowserContext): Promise<{
    page: Page
    panel: Locator
    read(): Promise<Controlled>
    makeSession(id: string): Promise<void>
    folder?: string
  }>
}

let browser: Browser
let demo: Listening
const servers: RunningSimulator[] = []

const CONNECTIONS: Connection[] = [
  {
    name: "the server's page at /__sim/ (admin API and event stream)",
    async open(context) {
      // A scenarios folder with a scenario of QA's.
      const folder = mkdtempSync(join(tmpdir(), 'petstore-panel-folder-'))
      writeFileSync(join(folder, 'qa-two.json'), JSON.stringify({ description: 'Two orders', orders: [{ id: 1 }, { id: 2 }] }))
      const inventory = { method: 'GET', path: '/store/inventory', status: 200, body: { available: 3 } }
      writeFileSync(join(folder, 'qa-routes.json'), JSON.stringify({ description: 'A route', orders: [{ id: 1 }], routes: [inventory] }))
      const server = await startSimulatorServer({ port: 0, host: '127.0.0.1', scenariosDir: folder })
      servers.push(server)
      const origin = new URL(server.url).origin
      const page = await context.newPage()
      await page.goto(`${origin}/__sim/`)
      const admin = async (path: string) => (await fetch(`${origin}/__sim${path}`)).json()
      return {
        page,
        folder,
        panel: page.locator('body'),
        read: async () => {
          const [state, faults, latency, rateLimit, sessions] = await Promise.all(
            ['/state', '/faults', '/latency', '/rate-limit', '/sessions'].map(admin),
          )
          return { orders: state.orders, faults, latency, rateLimit, sessions: sessions.map(({ id }: { id: string }) => id) }
        },
        makeSession: async (id) => {
          await fetch(`${origin}/__sim/reset`, { method: 'POST', headers: { 'X-Sim-Session': id }, body: '{"scenario":"shipped"}' })
        },
      }
    },
  },
  {
    name: "a page's corner panel (devtools, the in-process simulator)",
    async open(context) {
      const page = await context.newPage()
      await page.goto(`${demo.origin}/__sim/demo/?devtools`)
      await page.locator('body[data-ready="true"]').waitFor({ timeout: 20_000 })
      const panel = page.locator('petstore-sim-devtools')
      await panel.getByRole('button', { name: 'Petstore simulator' }).click()
      return {
        page,
        panel,
        // The demo page puts its simulator on window.petstoreSim.
        read: () =>
          page.evaluate(() => {
            type Sim = {
              state(): { orders: unknown[] }
              faults(): unknown[]
              latency(): unknown
              rateLimit(): unknown
              sessions(): { id: string }[]
            }
            const sim = (window as unknown as { petstoreSim: Sim }).petstoreSim
            return {
              orders: sim.state().orders,
              faults: sim.faults(),
              latency: sim.latency(),
              rateLimit: sim.rateLimit(),
              sessions: sim.sessions().map(({ id }) => id),
            }
          }) as Promise<Controlled>,
        makeSession: (id) =>
          page.evaluate(async (session) => {
            const sim = (window as unknown as { petstoreSim: { session(id: string): { reset(name: string): Promise<void> } } }).petstoreSim
            await sim.session(session).reset('shipped')
          }, id),
      }
    },
  },
]

const statusCell = (panel: Locator, id: number) => panel.locator(`tr[data-order-id="${id}"] td`).nth(5)
const rowOf = (panel: Locator, id: number) => panel.locator(`tr[data-order-id="${id}"]`)

describe.skipIf(SKIP_BROWSER_TESTS).each(CONNECTIONS)('every control of the panel, over $name', { timeout: 30_000 }, (connection) => {
  // The server's admin app (express, which serves the pages) loads in set-up, not in the first test's page.
  useAdminApi()
  let context: BrowserContext

  beforeAll(async () => {
    browser ??= await launchChromium()
    demo ??= await listen(createSimulatorApp().app)
    context = await browser.newContext({ viewport: { width: 1280, height: 1000 } })
  }, 60_000)
  afterAll(async () => {
    await context?.close()
    await Promise.all(servers.splice(0).map((server) => server.close()))
  })

  test('Scenario to load with Apply, a seed, and Reset', async () => {
    const { panel, read } = await connection.open(context)
    await expect.poll(() => statusCell(panel, 1).textContent()).toBe('pending')
    await panel.getByRole('combobox', { name: 'Scenario to load' }).selectOption('shipped')
    await panel.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(async () => (await read()).orders.map((order) => order.status)).toEqual(['shipped', 'shipped', 'shipped'])
    await expect.poll(() => panel.getByText(/^Now: shipped/).count()).toBe(1)
    await panel.getByLabel('Seed').fill('-3')
    await panel.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => panel.getByRole('alert').filter({ hasText: '"seed" must be a whole number' }).count()).toBe(1)
    await panel.getByRole('combobox', { name: 'Scenario to load' }).selectOption('default')
    await panel.getByLabel('Seed').fill('')
    await panel.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => statusCell(panel, 1).textContent()).toBe('pending')
    await rowOf(panel, 1).getByRole('button', { name: /^Ship/ }).click()
    await expect.poll(() => statusCell(panel, 1).textContent()).toBe('shipped')
    await panel.getByRole('button', { name: 'Reset', exact: true }).click()
    await expect.poll(async () => (await read()).orders[0]?.status).toBe('pending')
  })

  test("the scenario's routes, and whether what no route takes is forwarded", async () => {
    const { panel, folder } = await connection.open(context)
    await expect.poll(() => panel.getByText(/^Routes: 0\. Not forwarding/).count()).toBe(1)
    // Only the server's page has a folder with a scenario that holds a route.
    if (folder === undefined) return
    await panel.getByRole('combobox', { name: 'Scenario to load' }).selectOption('qa-routes')
    await panel.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => panel.getByText(/^Routes: 1\. Not forwarding/).count()).toBe(1)
    await expect
      .poll(() => panel.getByRole('list', { name: 'Routes' }).getByRole('listitem').allTextContents())
      .toEqual(['GET /store/inventory → 200'])
    await panel.getByRole('combobox', { name: 'Scenario to load' }).selectOption('default')
    await panel.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => panel.getByText(/^Routes: 0\./).count()).toBe(1)
  })

  test("Download gives this state as a scenario file; Save as scenario writes it in the server's folder, or says why it cannot", async () => {
    const { page, panel, read, folder } = await connection.open(context)
    await rowOf(panel, 1).getByRole('button', { name: /^Ship/ }).click()
    await expect.poll(async () => (await read()).orders[0]?.status).toBe('shipped')
    const saving = panel.getByRole('form', { name: 'This state as a scenario' })
    await saving.getByLabel('Name').fill('qa-one-shipped')
    const [download] = await Promise.all([page.waitForEvent('download'), saving.getByRole('button', { name: 'Download' }).click()])
    expect(download.suggestedFilename()).toBe('qa-one-shipped.json')
    const file = JSON.parse(readFileSync(await download.path(), 'utf8')) as { name: string; orders: { status?: string }[] }
    expect(file.name).toBe('qa-one-shipped')
    expect(file.orders.map((order) => order.status ?? 'pending')).toEqual((await read()).orders.map((order) => order.status))
    const save = saving.getByRole('button', { name: 'Save as scenario' })
    const said = saving.getByRole('status')
    if (folder === undefined) {
      // In a page there is no folder to write: the button says why instead of failing.
      expect(await save.isDisabled()).toBe(true)
      expect(await said.textContent()).toContain('no scenarios folder')
      return
    }
    const choices = panel.getByRole('combobox', { name: 'Scenario to load' })
    expect(await choices.locator('option', { hasText: 'qa-two (folder)' }).count()).toBe(1)
    // A file that does not load is listed with its error, and cannot be chosen.
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    writeFileSync(join(folder, 'broken.json'), '{"orders": [')
    await save.click()
    await expect.poll(() => said.textContent()).toBe('Saved as qa-one-shipped: Apply loads it, in any session.')
    expect(JSON.parse(readFileSync(join(folder, 'qa-one-shipped.json'), 'utf8'))).toMatchObject({ orders: file.orders })
    await expect.poll(() => choices.locator('option', { hasText: 'qa-one-shipped (folder)' }).count()).toBe(1)
    expect(await choices.locator('option', { hasText: /^broken \(folder\): does not load, the file is not valid JSON/ }).isDisabled()).toBe(
      true,
    )
    vi.restoreAllMocks()
    await save.click()
    await expect.poll(() => saving.getByRole('alert').textContent()).toContain('"overwrite": true')
    await saving.getByLabel('Overwrite').check()
    await save.click()
    await expect.poll(() => said.textContent()).toContain('Saved as qa-one-shipped')
    // A name that is no file name is refused before anything is sent.
    await saving.getByLabel('Name').fill('../outside')
    await save.click()
    expect(await saving.getByLabel('Name').evaluate((input) => (input as HTMLInputElement).validity.patternMismatch)).toBe(true)
    expect(existsSync(join(folder, '..', 'outside.json'))).toBe(false)
    // What was saved loads back by name.
    await panel.getByRole('button', { name: 'Reset', exact: true }).click()
    await expect.poll(async () => (await read()).orders[0]?.status).toBe('pending')
    await choices.selectOption('qa-one-shipped')
    await panel.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(async () => (await read()).orders[0]?.status).toBe('shipped')
  })

  test('fault presets, Add fault, and the active faults with their Remove', async () => {
    const { panel, read } = await connection.open(context)
    await panel.getByRole('button', { name: 'Next 2 cancels answer 503' }).click()
    await expect.poll(async () => (await read()).faults).toEqual([expect.objectContaining({ operation: 'cancelOrder', kind: 'status' })])
    await expect.poll(() => panel.getByRole('list', { name: 'Active faults' }).textContent()).toContain('2 more times')
    const anyFault = panel.locator('form', { has: panel.page().getByRole('button', { name: 'Add fault' }) })
    await anyFault.getByLabel('Operation').selectOption('listOrders')
    await anyFault.getByLabel('Kind').selectOption('network')
    await anyFault.getByLabel('Times').fill('1')
    await anyFault.getByRole('button', { name: 'Add fault' }).click()
    await expect.poll(async () => (await read()).faults.length).toBe(2)
    const removes = panel.getByRole('button', { name: /^Remove fault \d+$/ })
    // The server's state has both before the panel's event stream shows both: wait for the panel, or a
    // stale list of one passes the count below and the next click removes that one again.
    await expect.poll(() => removes.count()).toBe(2)
    for (let left = 2; left > 0; left--) {
      const name = (await removes.first().getAttribute('aria-label')) ?? ''
      await removes.first().click()
      await expect.poll(() => panel.getByRole('button', { name, exact: true }).count()).toBe(0)
      await expect.poll(() => removes.count()).toBe(left - 1)
    }
    await expect.poll(() => panel.getByRole('list', { name: 'Active faults' }).textContent()).toBe('None.')
    expect((await read()).faults).toEqual([])
  })

  test('latency and rate limit: set, refused beside the control, turned off', async () => {
    const { panel, read } = await connection.open(context)
    await panel.getByLabel('All operations', { exact: true }).fill('50-400')
    await panel.getByLabel('cancelOrder', { exact: true }).fill('20')
    await panel.getByRole('button', { name: 'Set latency' }).click()
    await expect.poll(() => panel.getByText(/^Now: all/).textContent()).toBe('Now: all 50-400 ms, cancelOrder 20 ms.')
    expect((await read()).latency).toEqual({ default: { min: 50, max: 400 }, cancelOrder: { min: 20, max: 20 } })
    await panel.getByRole('button', { name: 'No latency' }).click()
    await expect.poll(async () => (await read()).latency).toBeNull()
    await panel.getByLabel('Rate limit', { exact: true }).fill('100/60s')
    await panel.getByRole('button', { name: 'Set rate limit' }).click()
    await expect.poll(() => panel.getByText('Now: 100 per 60 s.').count()).toBe(1)
    expect((await read()).rateLimit).toEqual({ limit: 100, windowSeconds: 60 })
    await panel.getByLabel('Rate limit', { exact: true }).fill('often')
    await panel.getByRole('button', { name: 'Set rate limit' }).click()
    await expect.poll(() => panel.getByRole('alert').filter({ hasText: 'rate limit' }).count()).toBe(1)
    expect((await read()).rateLimit).toEqual({ limit: 100, windowSeconds: 60 })
    await panel.getByRole('button', { name: 'No rate limit' }).click()
    await expect.poll(async () => (await read()).rateLimit).toBeNull()
  })

  test("a row's Ship, Cancel and Remove, and Add order", async () => {
    const { panel, read } = await connection.open(context)
    await rowOf(panel, 2).getByRole('button', { name: /^Ship/ }).click()
    await rowOf(panel, 3)
      .getByRole('button', { name: /^Cancel/ })
      .click()
    await rowOf(panel, 4)
      .getByRole('button', { name: /^Remove/ })
      .click()
    await expect
      .poll(async () => (await read()).orders.map(({ id, status }) => `${id} ${status}`).slice(1, 3))
      .toEqual(['2 shipped', '3 cancelled'])
    await expect.poll(() => rowOf(panel, 4).count()).toBe(0)
    expect((await read()).orders.some(({ id }) => id === 4)).toBe(false)
    const add = panel.getByRole('form', { name: 'Add order' })
    await add.getByLabel('Id', { exact: true }).fill('9007199254740993')
    await add.getByLabel('Pet id').fill('7')
    await add.getByRole('button', { name: 'Add order' }).click()
    await expect.poll(() => panel.locator('tr[data-order-id="9007199254740993"] td').nth(1).textContent()).toBe('7')
    await add.getByLabel('Id', { exact: true }).fill('2')
    await add.getByRole('button', { name: 'Add order' }).click()
    await expect.poll(() => add.getByRole('alert').textContent()).toBe('Order 2 already exists; change it with PATCH, or give another id.')
  })

  test('Advance clock moves the simulated time, and the clock shows it', async () => {
    const { panel } = await connection.open(context)
    await expect.poll(() => panel.getByText(/^Simulated time:/).textContent()).toContain('not advanced')
    await panel.getByLabel('Advance by').fill('90s')
    await panel.getByRole('button', { name: 'Advance clock' }).click()
    await expect.poll(() => panel.getByText(/^Simulated time:/).textContent()).toContain('advanced 90 s')
  })

  test('the requests with their filter, and Clear', async () => {
    const { page, panel } = await connection.open(context)
    const requests = panel.getByRole('table', { name: /requests$/i }).locator('tbody tr')
    if (connection.name.startsWith("the server's")) {
      const origin = new URL(page.url()).origin
      for (const id of [1, 2])
        await fetch(`${origin}/v1/store/orders/${id}`, { method: 'DELETE', headers: { Authorization: 'Bearer petstore-test-key' } })
      await fetch(`${origin}/v1/store/orders`, { headers: { Authorization: 'Bearer petstore-test-key' } })
    } else {
      // The demo app lists on load, and cancels from its rows.
      await page.locator('#orders tr[data-order-id="1"] button').click()
      await page.locator('#orders tr[data-order-id="2"] button').click()
    }
    await expect.poll(() => requests.count()).toBeGreaterThanOrEqual(3)
    const filter = panel.locator('form', { has: panel.page().getByRole('button', { name: /^Clear/ }) })
    await filter.getByLabel('Operation').selectOption('cancelOrder')
    await expect.poll(async () => (await requests.allTextContents()).every((text) => text.includes('DELETE'))).toBe(true)
    // Polled too: the filtered list can show its first row alone for a moment, every one a DELETE.
    await expect.poll(() => requests.count()).toBe(2)
    await filter.getByLabel('Status').fill('404')
    await expect.poll(() => requests.allTextContents()).toEqual(['None yet.'])
    await filter.getByLabel('Status').fill('')
    await filter.getByLabel('Operation').selectOption('')
    await panel.getByRole('button', { name: /^Clear/ }).click()
    await expect.poll(() => requests.allTextContents()).toEqual(['None yet.'])
  })

  test("the session picker, where there are sessions, shows and steers a session's own state", async () => {
    const { panel, read, makeSession } = await connection.open(context)
    await makeSession('qa-7')
    await panel.getByLabel('Session').selectOption('qa-7')
    await expect.poll(() => statusCell(panel, 1).textContent()).toBe('shipped')
    await panel.getByRole('button', { name: 'Next list is malformed JSON' }).click()
    await expect.poll(() => panel.getByRole('list', { name: 'Active faults' }).textContent()).toContain('listOrders')
    // The default state was not touched.
    expect((await read()).faults).toEqual([])
    expect((await read()).sessions).toContain('qa-7')
  })
})

afterAll(async () => {
  await browser?.close()
  await demo?.close()
})
