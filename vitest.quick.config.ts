import { configDefaults, defineConfig } from 'vitest/config'
import full from './vitest.config.js'

// `npm run test:quick`, the daily loop (docs/developing.md): the unit and in-process behaviour suites only.
// No build (nothing from dist/), no browser, no process started; `npm test` runs these and the ones below.
export default defineConfig({
  test: {
    ...full.test,
    // Every core (vitest leaves one idle by default), and each worker keeps its modules from file to file:
    // a fresh process per file costs twice the CPU of the tests themselves. The files of one worker run one
    // after another, each closing its own msw server, so no two patch fetch at once; `npm test` isolates them.
    maxWorkers: '100%',
    isolate: false,
    // The property-based and model suites make a few runs here and their full count in `npm test` (test/support/runs.ts).
    env: { VITEST_QUICK: '1' },
    include: ['test/*.test.ts', 'src/**/*.test.ts'],
    exclude: [
      ...configDefaults.exclude,
      // They need the build: the built CLI (dist/cli.mjs), Node on dist/, or a bundle written into dist/.
      'test/browser-entry.test.ts',
      'test/cli.test.ts',
      'test/cli-input.test.ts',
      'test/cli-scenarios-dir.test.ts',
      'test/consumer.test.ts',
      'test/coverage-cli.test.ts',
      'test/docs.test.ts',
      'test/lifecycle-process.test.ts',
      'test/mcp-stdio.test.ts',
      'test/module-count.test.ts',
      'test/newcomer.test.ts',
      'test/record-import-har.test.ts',
      'test/verify.test.ts',
      'test/verify-hostile.test.ts',
      // They start other programs: Jest, Chromium, podman, nginx, a child Node.js.
      'test/container.test.ts',
      'test/jest-preset.test.ts',
      'test/playwright-fixture.test.ts',
      'test/scaling.test.ts',
      'test/scenarios-folder-hazards.test.ts',
      // A state of 100,000 orders through the event stream: a fifth of the quick loop's CPU for three tests.
      'test/admin-events-large.test.ts',
      // They count calls through vi.mock, which needs a module graph of the file's own (npm test isolates files).
      'src/core/routes/route-book.test.ts',
      'test/recordings-bounded.test.ts',
    ],
  },
})
