import type { StorybookConfig } from '@storybook/react-vite'
import { viteFinal } from './vite-final.ts'

// The stories without msw-storybook-addon: petstoreSim() starts the one msw worker itself.
const config: StorybookConfig = {
  stories: ['../src/*.stories.tsx'],
  framework: '@storybook/react-vite',
  addons: ['@storybook/addon-vitest'],
  // Serves public/mockServiceWorker.js (written by `npx msw init public`).
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
  viteFinal,
}
export default config
