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
    // A test keeps vitest's 5 s for what it asserts; one that needs more says so on itself, with why. Heavy
    // set-up (a bundle, a browser, a server, the admin app) goes in beforeAll, whose timeout is sized for a busy
    // machine: beside four CPU-bound processes on two cores (npm run test:loaded) it runs three to four times slower.
    hookTimeout: 60_000,
    // expect.poll gives up after 1 s by default: what it waits for (a page's change, a process's line) comes when a
    // busy machine gets to it. A test whose point is how soon says so on the poll itself.
    expect: { poll: { timeout: 15_000 } },
  },
})
