import { execFile } from 'node:child_process'
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { MergedCoverage } from '../src/cli/coverage-command/read-coverage.js'
import { CLI, ROOT } from './support/cli-process.js'
import { runJest } from './support/jest-project.js'
import { linkedProject, packageDir } from './support/linked-project.js'

// Consumer projects of the built package, each run by its own test runner in a child process: seconds on an idle
// machine, three to four times that beside other work. Under the repository, so that the runners resolve from it.
const WORK = join(ROOT, '.doc-test')
const FIXTURES = join(ROOT, 'test/fixtures')

/** Runs `command` in `cwd`; resolves with its exit code and what it printed. */
function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string; stdout: string }> {
  return new Promise((resolve) => {
    const env = { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' }
    execFile(command, args, { cwd, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1
      resolve({ code, output: `${stdout}${stderr}`, stdout })
    })
  })
}

/** A consumer project of the fixture `name`, linked to this package, its coverage folder empty. */
function consumer(name: string, type: 'module' | 'commonjs'): string {
  const folder = linkedProject(join(WORK, name), type)
  cpSync(join(FIXTURES, name), folder, { recursive: true })
  return folder
}

/** `petstore-sim coverage petstore-coverage --json` in `folder`: the merged result. */
async function merged(folder: string): Promise<MergedCoverage> {
  const result = await run(process.execPath, [CLI, 'coverage', 'petstore-coverage', '--json'], folder)
  expect(result.code, result.output).toBe(0)
  return JSON.parse(result.stdout) as MergedCoverage
}

/** Each test's outcomes by its name, and each outcome's tests (sorted: files run in parallel), by its id, for those seen. */
function attribution(coverage: MergedCoverage) {
  return {
    tests: Object.fromEntries(coverage.tests.map(({ name, outcomes }) => [name, outcomes])),
    outcomes: Object.fromEntries(
      coverage.outcomes.filter((outcome) => outcome.count > 0).map((outcome) => [outcome.id, [...outcome.tests].sort()]),
    ),
  }
}

const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

describe('a vitest project with petstore-orders-simulator/vitest in setupFiles (test/fixtures/coverage-consumer-vitest)', () => {
  const coverage = { merged: undefined as MergedCoverage | undefined, files: [] as string[] }
  beforeAll(async () => {
    const folder = consumer('coverage-consumer-vitest', 'module')
    folders.push(folder)
    const vitest = join(packageDir('vitest'), 'vitest.mjs')
    const result = await run(process.execPath, [vitest, 'run'], folder)
    expect(result.code, result.output).toBe(0)
    coverage.files = readdirSync(join(folder, 'petstore-coverage'))
    coverage.merged = await merged(folder)
  }, 240_000)

  test('each file wrote its coverage with the one afterAll line, and the merge names exactly the tests that saw each outcome', () => {
    expect(coverage.files).toHaveLength(3)
    const cancel = 'test/cancel.spec.ts > cancel > an unknown order is 404, and the list still has it'
    const list = 'test/list.spec.ts > lists the orders'
    expect(attribution(coverage.merged as MergedCoverage)).toEqual({
      tests: {
        'test/cancel.spec.ts > cancel > a shipped order is 409': ['cancelOrder.409.order_already_shipped'],
        [cancel]: ['listOrders.200', 'cancelOrder.404.order_not_found'],
        [list]: ['listOrders.200'],
        'test/list.spec.ts > a missing key is refused': ['listOrders.401.unauthorized'],
        'test/pets.spec.ts > pets > lookup > an unknown pet is 404': ['getPetById.404.pet_not_found'],
      },
      outcomes: {
        'listOrders.200': [cancel, list],
        'listOrders.401.unauthorized': ['test/list.spec.ts > a missing key is refused'],
        'cancelOrder.404.order_not_found': [cancel],
        'cancelOrder.409.order_already_shipped': ['test/cancel.spec.ts > cancel > a shipped order is 409'],
        // Asked in beforeAll: counted, under no test.
        'getPetById.200': [],
        'getPetById.404.pet_not_found': ['test/pets.spec.ts > pets > lookup > an unknown pet is 404'],
      },
    })
    // The test that made no request is under none.
    expect(JSON.stringify(coverage.merged)).not.toContain('formats a total')
  })
})

describe('a Jest project with the preset (test/fixtures/coverage-consumer-jest)', () => {
  const coverage = { merged: undefined as MergedCoverage | undefined }
  beforeAll(async () => {
    const folder = consumer('coverage-consumer-jest', 'commonjs')
    folders.push(folder)
    const result = await runJest(folder)
    expect(result.code, result.output).toBe(0)
    expect(result.report?.numPassedTests).toBe(6)
    coverage.merged = await merged(folder)
  }, 240_000)

  test("the merge names each test by its file and Jest's full name, and the test that made no request under none", () => {
    const cancel = 'test/cancel.test.js > cancel an unknown order is 404, and the list still has it'
    const list = 'test/list.test.js > lists the orders'
    expect(attribution(coverage.merged as MergedCoverage)).toEqual({
      tests: {
        'test/cancel.test.js > cancel a shipped order is 409': ['cancelOrder.409.order_already_shipped'],
        [cancel]: ['listOrders.200', 'cancelOrder.404.order_not_found'],
        [list]: ['listOrders.200'],
        'test/list.test.js > a missing key is refused': ['listOrders.401.unauthorized'],
        'test/pets.test.js > pets lookup an unknown pet is 404': ['getPetById.404.pet_not_found'],
      },
      outcomes: {
        'listOrders.200': [cancel, list],
        'listOrders.401.unauthorized': ['test/list.test.js > a missing key is refused'],
        'cancelOrder.404.order_not_found': [cancel],
        'cancelOrder.409.order_already_shipped': ['test/cancel.test.js > cancel a shipped order is 409'],
        'getPetById.200': [],
        'getPetById.404.pet_not_found': ['test/pets.test.js > pets lookup an unknown pet is 404'],
      },
    })
    expect(JSON.stringify(coverage.merged)).not.toContain('formats a total')
  })
})

describe('node:test with the node-test entry imported', () => {
  const coverage = { merged: undefined as MergedCoverage | undefined }
  beforeAll(async () => {
    const folder = linkedProject(join(WORK, 'coverage-consumer-node-test'), 'module')
    folders.push(folder)
    writeFileSync(
      join(folder, 'orders.test.mjs'),
      `import 'petstore-orders-simulator/node-test'
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { setupSimulatorServer, writeCoverage } from 'petstore-orders-simulator/node'

const { sim, server } = setupSimulatorServer({ scenario: 'shipped', onUnhandledRequest: 'error' })
before(() => server.listen())
after(() => server.close())
after(() => writeCoverage(sim.coverage()))

describe('cancel', () => {
  test('a shipped order is 409', async () => {
    const response = await fetch('https://api.petstore.example/v1/store/orders/1', { method: 'DELETE', headers: { Authorization: 'Bearer petstore-test-key' } })
    assert.equal(response.status, 409)
  })
})
test('makes no request', () => assert.equal(1, 1))
`,
    )
    const result = await run(process.execPath, ['--test', 'orders.test.mjs'], folder)
    expect(result.code, result.output).toBe(0)
    coverage.merged = await merged(folder)
  }, 240_000)

  test('names each test by its file and its full name', () => {
    expect(coverage.merged?.tests).toEqual([
      { name: 'orders.test.mjs > cancel > a shipped order is 409', outcomes: ['cancelOrder.409.order_already_shipped'] },
    ])
  })
})
