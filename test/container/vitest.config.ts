import { defineConfig } from 'vitest/config'

// `npm run test:container`: the container image test alone, apart from `npm test` (it builds an image).
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/container.test.ts'],
    // Its answers under /__sim are checked against the admin OpenAPI document, as in the main suite.
    setupFiles: ['test/support/validate-admin-responses.ts'],
    testTimeout: 60_000,
    hookTimeout: 900_000,
  },
})
