import { execFile } from 'node:child_process'
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { readCoverage } from '../src/cli/coverage-command/read-coverage.js'
import { assertChromium, explainBrowserSkip, SKIP_BROWSER_TESTS } from './support/chromium.js'
import { ROOT } from './support/cli-process.js'

const PLAYWRIGHT_CLI = createRequire(import.meta.url).resolve('@playwright/test/cli')
const REPORT = join(ROOT, 'test-results/playwright-fixture-report.json')
const PACT = join(ROOT, 'test-results/playwright-fixture-pacts/fixture-web-petstore-orders-service.json')
const COVERAGE = join(ROOT, 'test-results/playwright-fixture-coverage')

interface ReportedTest {
  title: string
  ok: boolean
  errors: string[]
}

interface Suite {
  title: string
  suites?: Suite[]
  specs?: { title: string; ok: boolean; tests: { results: { errors: { message?: string }[] }[] }[] }[]
}

/** Every test of Playwright's JSON report, with the messages of its errors. */
function testsOf(suites: Suite[]): ReportedTest[] {
  return suites.flatMap((suite) => [
    ...(suite.specs ?? []).map((spec) => ({
      title: spec.title,
      ok: spec.ok,
      errors: spec.tests.flatMap((run) => run.results.flatMap((result) => result.errors.map((error) => error.message ?? ''))),
    })),
    ...testsOf(suite.suites ?? []),
  ])
}

explainBrowserSkip('the Playwright fixture tests')

describe.skipIf(SKIP_BROWSER_TESTS)('petstore-orders-simulator/playwright, run by Playwright on 2 workers (test/playwright/)', () => {
  test('every fixture test holds, and each bad input fails its own test with the simulator message', async () => {
    assertChromium()
    rmSync(REPORT, { force: true })
    rmSync(PACT, { force: true })
    rmSync(COVERAGE, { recursive: true, force: true })
    await new Promise<void>((resolve) => {
      execFile(
        process.execPath,
        [PLAYWRIGHT_CLI, 'test', '-c', 'test/playwright', '--reporter=json'],
        { cwd: ROOT, env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: REPORT, FORCE_COLOR: '0', NO_COLOR: '1' }, timeout: 120_000 },
        // The verdict is read from the report, which says more than an exit code.
        () => resolve(),
      )
    })
    const report = JSON.parse(readFileSync(REPORT, 'utf8')) as { suites: Suite[]; errors: unknown[] }
    expect(report.errors).toEqual([])
    const tests = testsOf(report.suites)
    expect(tests.filter((reported) => !reported.ok).map((reported) => [reported.title, reported.errors])).toEqual([])
    expect(tests).toHaveLength(18)

    // test/playwright/pact.spec.ts: both modes' tests, from two workers, in one file, sorted, the same bytes every run.
    const pact = JSON.parse(readFileSync(PACT, 'utf8')) as { consumer: unknown; interactions: { description: string }[] }
    expect(pact.consumer).toEqual({ name: 'fixture-web' })
    expect(pact.interactions.map((interaction) => interaction.description)).toEqual([
      'DELETE /store/orders/1 given order 1 is pending: 204',
      'DELETE /store/orders/1 given order 1 is shipped: 409 order_already_shipped',
      'GET /store/orders: 200',
    ])

    // Each test that opened its session wrote its coverage, without a line of its own; pact.spec.ts alone met these.
    const files = readdirSync(COVERAGE)
    expect(files.length).toBeGreaterThanOrEqual(2)
    expect(files.length).toBeLessThanOrEqual(tests.length)
    const merged = readCoverage([COVERAGE]).coverage
    const countOf = (id: string) => merged.outcomes.find((outcome) => outcome.id === id)?.count ?? 0
    expect(countOf('cancelOrder.204')).toBeGreaterThanOrEqual(1)
    expect(countOf('cancelOrder.409.order_already_shipped')).toBeGreaterThanOrEqual(1)
    expect(countOf('listOrders.200')).toBeGreaterThanOrEqual(2)
    // Each file is one test's session, named by its title path: file, describe titles, title.
    const named = Object.fromEntries(merged.tests.map(({ name, outcomes }) => [name, outcomes]))
    expect(named).toMatchObject({
      "pact.spec.ts > a pact of the run (server mode) > each passing test adds its session's interactions (server)": [
        'listOrders.200',
        'cancelOrder.204',
      ],
      "pact.spec.ts > a pact of the run (route mode) > each passing test adds its session's interactions (route)": [
        'listOrders.200',
        'cancelOrder.409.order_already_shipped',
      ],
    })
    expect(merged.outcomes.find((outcome) => outcome.id === 'cancelOrder.204')?.tests).toContain(
      "pact.spec.ts > a pact of the run (server mode) > each passing test adds its session's interactions (server)",
    )

    const errorOf = (title: string) => tests.find((reported) => reported.title === title)?.errors.join('\n') ?? ''
    expect(errorOf('unknown scenario (server)')).toContain(
      'refused POST /__sim/reset: Unknown scenario "no-such-scenario": over HTTP a scenario is named, never a path. ' +
        'The available scenarios are default, pending, shipped, missing, bad-key, flaky-network, slow-cancel.',
    )
    expect(errorOf('unknown scenario (route)')).toContain(
      'Failed to load scenario "no-such-scenario": no built-in scenario has this name; the built-in scenarios are default, pending, shipped',
    )
    expect(errorOf('bad pact consumer')).toContain(
      'pact: "consumer" must be 1 to 64 letters, digits, ".", "_" or "-", got the string "../orders-web".',
    )
    const unreachable = errorOf('unreachable simulator')
    expect(unreachable).toMatch(/^Error: No simulator answers at http:\/\/127\.0\.0\.1:4021 \(ECONNREFUSED\): start one before the tests/)
    expect(unreachable).toContain("webServer: { command: 'npx petstore-sim --port 4021', url: 'http://127.0.0.1:4021/__sim' }")
    expect(unreachable.split('\n')).toHaveLength(1)
  }, 150_000)
})
