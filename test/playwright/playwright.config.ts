import { defineConfig } from '@playwright/test'
import type { SimulatorTestOptions } from 'petstore-orders-simulator/playwright'

/** The fixture's own tests (run by test/playwright-fixture.test.ts): a simulator on this port, nothing on the next one. */
export const SIMULATOR_PORT = 4020

export default defineConfig<SimulatorTestOptions>({
  testDir: '.',
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  outputDir: '../../test-results/playwright-fixture',
  use: {
    simulatorUrl: `http://127.0.0.1:${SIMULATOR_PORT}/v1`,
    // Relative to the runner's working directory, the repository: test/playwright-fixture.test.ts reads it.
    simulatorCoverage: 'test-results/playwright-fixture-coverage',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  },
  webServer: {
    command: `node ../../dist/cli.mjs --port ${SIMULATOR_PORT} --quiet`,
    url: `http://127.0.0.1:${SIMULATOR_PORT}/__sim`,
    reuseExistingServer: false,
  },
})
