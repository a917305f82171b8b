import { join } from 'node:path'
import { expect as baseExpect, test as baseTest, type TestInfo } from '@playwright/test'
import { addToRunPact } from './transports/node/run-pact.js'
import { DEFAULT_COVERAGE_DIR, writeCoverage } from './transports/node/write-coverage.js'
import type { RequestFilter } from './core/state/request-filter.js'
import { openSimulatorFixture, type SimulatorTestOptions } from './transports/playwright/open-fixture.js'
import { toHaveReceived } from './transports/playwright/received-matcher.js'
import { testCoverage } from './transports/playwright/test-coverage.js'
import type { SimulatorFixture } from './transports/playwright/simulator-fixture.js'

export type { PactFixtureOptions, SimulatorTestOptions } from './transports/playwright/open-fixture.js'
export type { SimulatorFixture, SimulatorMode } from './transports/playwright/simulator-fixture.js'
export type { RequestFilter }

/** Writes a test's coverage; a failure (a server from before coverage, a folder it cannot write) warns, never fails the test. */
async function writeTestCoverage(sim: SimulatorFixture, dir: string, testInfo: TestInfo): Promise<void> {
  try {
    writeCoverage(await sim.coverage(), { dir })
  } catch (error) {
    const message = `Failed to write this test's outcome coverage to ${dir}: ${error instanceof Error ? error.message : String(error)}`
    testInfo.annotations.push({ type: 'warning', description: message })
    console.warn(`[petstore-orders-simulator] ${message}`)
  }
}

/**
 * Playwright's `test` with a `sim` fixture: each test gets a session of its
 * own, reset to its `scenario`, which every request of its browser context
 * to the simulator acts on. In `'server'` mode its requests to the app's own
 * origin (`baseURL`) carry the session too, as `X-Sim-Session` and W3C
 * `baggage`, for a server-rendering app to pass on (docs/ssr.md).
 * @example
 * test.use({ scenario: 'pending' })
 * test('cancels', async ({ page, sim }) => {
 *   await page.goto('/')
 *   await page.getByRole('button', { name: 'Cancel order 1' }).click()
 *   await expect(sim).toHaveReceived({ operation: 'cancelOrder', orderId: 1, status: 204 }, { times: 1 })
 * })
 */
export const test = baseTest.extend<SimulatorTestOptions & { sim: SimulatorFixture }>({
  scenario: ['default', { option: true }],
  simulatorUrl: [process.env['PETSTORE_SIM_URL'] ?? 'http://127.0.0.1:4010/v1', { option: true }],
  simulatorMode: ['server', { option: true }],
  simulatorAdminToken: [process.env['PETSTORE_SIM_ADMIN_TOKEN'], { option: true }],
  pact: [undefined, { option: true }],
  simulatorCoverage: [DEFAULT_COVERAGE_DIR, { option: true }],
  sim: async ({ context, baseURL, scenario, simulatorUrl, simulatorMode, simulatorAdminToken, pact, simulatorCoverage }, use, testInfo) => {
    const options = { scenario, simulatorUrl, simulatorMode, simulatorAdminToken, pact, simulatorCoverage, baseURL }
    const opened = await openSimulatorFixture(context, options, testInfo)
    // The session is this test's: its coverage names this test as the one that saw its outcomes.
    const sim: SimulatorFixture = { ...opened.sim, coverage: async () => testCoverage(await opened.sim.coverage(), testInfo.titlePath) }
    try {
      await use(sim)
      // Only a test that passed adds to the pact: what a failed one sent (even one expected to fail) may not be what the app needs.
      if (pact !== undefined && testInfo.status === 'passed') {
        const { dir, ...names } = pact
        // Playwright empties the output folder at the start of a run: the parts there are this run's only.
        const parts = join(testInfo.project.outputDir, 'petstore-sim-pacts')
        await addToRunPact(await opened.sim.pact(names), dir === undefined ? { parts } : { parts, dir })
      }
      // Every test's, passed or not: coverage says what the app met, which a failed test met too.
      if (simulatorCoverage !== false) await writeTestCoverage(sim, simulatorCoverage, testInfo)
    } finally {
      await opened.close()
    }
  },
})

/**
 * Playwright's `expect` with `toHaveReceived`: `await expect(sim).toHaveReceived({ operation, method, orderId, status }, { times })`,
 * retried until the expect timeout; `.not` works too. The failure message lists what the session received.
 */
export const expect = baseExpect.extend({ toHaveReceived })
