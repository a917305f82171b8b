import { storybookTest } from '@storybook/addon-vitest/vitest-plugin'
import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'
import { storyOrder } from './story-order.ts'

// Debian's Chromium: Playwright's own browser downloads are not available everywhere this runs.
const browser = (name: string) => ({
  enabled: true,
  headless: true,
  provider: playwright({
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  }),
  instances: [{ browser: 'chromium' as const, name }],
})

// Every story becomes a test (its play function the assertions), in two projects: without and with msw-storybook-addon.
export default defineConfig({
  server: { host: '127.0.0.1' },
  // As .storybook/vite-final.ts says: the linked package's order model, named up front so that Vite does not reload mid-run.
  optimizeDeps: { include: ['@msw/data'] },
  test: {
    projects: [
      { extends: true, plugins: [storyOrder(), storybookTest({ configDir: '.storybook' })], test: { name: 'storybook', browser: browser('stories without the addon') } },
      {
        extends: true,
        plugins: [storyOrder(), storybookTest({ configDir: '.storybook-msw-addon' })],
        test: { name: 'storybook-msw-addon', browser: browser('stories with msw-storybook-addon') },
      },
    ],
  },
})
