import { defineConfig } from '@playwright/test'
import type { SimulatorTestOptions } from 'petstore-orders-simulator/playwright'

const SIMULATOR_PORT = 4010
const APP_PORT = 4173
// A simulator that already runs elsewhere (replicas behind a balancer: docs/scaling.md); else one is started here.
const SIMULATOR_URL = process.env.PETSTORE_SIM_URL

export default defineConfig<SimulatorTestOptions>({
  testDir: '.',
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  outputDir: '../../test-results/playwright-example',
  use: {
    baseURL: `http://127.0.0.1:${APP_PORT}`,
    // Where the app calls the API; the sim fixture gives each test its own session there.
    simulatorUrl: SIMULATOR_URL ?? `http://127.0.0.1:${SIMULATOR_PORT}/v1`,
    // Each test's outcome coverage (docs/coverage.md), beside the run's output; by default petstore-coverage/ where
    // the run starts. This run starts in the repository, so the folder is named from there.
    simulatorCoverage: 'test-results/playwright-example-coverage',
    // Debian's chromium; drop launchOptions to use a browser from `npx playwright install`.
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  },
  webServer: [
    ...(SIMULATOR_URL === undefined
      ? [
          {
            // In your project: npx petstore-sim --port 4010 --quiet
            command: `node ../../dist/cli.mjs --port ${SIMULATOR_PORT} --quiet`,
            url: `http://127.0.0.1:${SIMULATOR_PORT}/__sim`,
            reuseExistingServer: !process.env.CI,
          },
        ]
      : []),
    {
      command: `node serve-app.mjs ${APP_PORT}`,
      url: `http://127.0.0.1:${APP_PORT}/`,
      reuseExistingServer: !process.env.CI,
    },
  ],
})
