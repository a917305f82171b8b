import type { StorybookConfig } from '@storybook/react-vite'
import { viteFinal } from '../.storybook/vite-final.ts'

// The same component with msw-storybook-addon present: one worker, the addon's.
const config: StorybookConfig = {
  stories: ['../src/with-msw-addon/*.stories.tsx'],
  framework: '@storybook/react-vite',
  addons: ['@storybook/addon-vitest'],
  staticDirs: ['../public'],
  core: { disableTelemetry: true },
  viteFinal,
}
export default config
