import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // It builds and runs a container image: `npm run test:container` (test/container/vitest.config.ts), which CI runs.
    exclude: [...configDefaults.exclude, 'test/container.test.ts'],
    // Each file gets its own msw server; they must not patch fetch at the same time in one worker.
    isolate: true,
    // Checks every admin answer a test gets from fetch against the admin document, made from the admin table.
    setupFiles: ['test/support/validate-admin-responses.ts'],
  },
})
