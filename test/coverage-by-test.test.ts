import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { coverageMain } from '../src/cli/coverage-command/coverage-main.js'
import { readCoverage, testsByOutcome } from '../src/cli/coverage-command/read-coverage.js'
import { type Coverage, createSimulator } from '../src/index.js'
import { startSimulatorServer } from '../src/server.js'
import { runningTests, testEnded, testStarted } from '../src/core/outcome-coverage/current-test.js'
import { testTime } from './support/test-time.js'
// What a project's setupFiles holds: from here on, each test of this file is named for coverage.
import '../src/vitest.js'

const API = 'https://api.petstore.example/v1'
const KEY = { Authorization: 'Bearer petstore-test-key' }
const FILE = 'test/coverage-by-test.test.ts'

const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})
/** A folder of coverage files, each written as given. */
function folderOf(files: Record<string, unknown>): string {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-by-test-'))
  folders.push(folder)
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(folder, name), typeof content === 'string' ? content : JSON.stringify(content))
  return folder
}

/** Runs `petstore-sim coverage` in process: its exit code and what it printed. */
function run(...argv: string[]) {
  const printed = { stdout: [] as string[], stderr: [] as string[] }
  const code = coverageMain(argv, { stdout: (text) => printed.stdout.push(text), stderr: (text) => printed.stderr.push(text) })
  return { code, stdout: printed.stdout.join(''), stderr: printed.stderr.join('') }
}

/** A coverage of no requests, with `tests` as given. */
function withTests(tests: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...createSimulator().coverage(), tests, ...extra }
}

describe('in a vitest run with the entry', () => {
  test('an answer is attributed to the running test by its full name: file, describe, title', async () => {
    const sim = createSimulator({ scenario: 'shipped' })
    await sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY })
    await sim.fetch(`${API}/store/orders`, { headers: KEY })
    expect(sim.coverage().tests).toEqual([
      {
        name: `${FILE} > in a vitest run with the entry > an answer is attributed to the running test by its full name: file, describe, title`,
        outcomes: ['listOrders.200', 'cancelOrder.409.order_already_shipped'],
      },
    ])
  })

  test('a slow answer is the test’s whose request it was, though another test runs when it comes', async () => {
    const time = testTime()
    const sim = createSimulator({ scenario: 'shipped', time, latency: { cancelOrder: 100 } })
    const slow = sim.fetch(`${API}/store/orders/1`, { method: 'DELETE', headers: KEY })
    await time.untilPending()
    // As a runner's entry does between tests: this one ends, the next one starts, then the answer comes.
    const current = runningTests()[0] ?? ''
    testEnded(current)
    testStarted('test/next.test.ts > the next test')
    try {
      await time.advance(100)
      expect((await slow).status).toBe(409)
    } finally {
      testEnded('test/next.test.ts > the next test')
      testStarted(current)
    }
    expect(sim.coverage().tests).toEqual([{ name: current, outcomes: ['cancelOrder.409.order_already_shipped'] }])
  })

  test('over HTTP too, a server in the test process: GET /__sim/coverage names the test, and each outcome has its recipe', async () => {
    const server = await startSimulatorServer({ port: 0, host: '127.0.0.1', scenario: 'pending' })
    try {
      await fetch(`${server.url}/store/orders`, { headers: KEY })
      const coverage = (await (await fetch(`${new URL(server.url).origin}/__sim/coverage`)).json()) as Coverage
      expect(coverage.tests?.map((entry) => entry.outcomes)).toEqual([['listOrders.200']])
      expect(coverage.tests?.[0]?.name).toMatch(/^test\/coverage-by-test\.test\.ts > in a vitest run with the entry > over HTTP too/)
      expect(coverage.outcomes.every((outcome) => outcome.recipe.steps.length > 0)).toBe(true)
    } finally {
      await server.close()
    }
  })
})

describe('petstore-sim coverage merges the tests of its files', () => {
  test('a test named in two files (two simulators in one test) is one, its outcomes united; an older file adds counts, no names', () => {
    const older = createSimulator().coverage() as unknown as { outcomes: Record<string, unknown>[] }
    // A file of the version before: no recipe on its outcomes, no tests.
    const bare = {
      ...older,
      outcomes: older.outcomes.map(({ recipe: _, ...outcome }) => ({ ...outcome, count: outcome['id'] === 'getPetById.200' ? 2 : 0 })),
    }
    const counted = (ids: string[]) =>
      createSimulator()
        .coverage()
        .outcomes.map((outcome) => ({ ...outcome, count: ids.includes(outcome.id) ? 1 : 0 }))
    const folder = folderOf({
      'a.json': { ...withTests([{ name: 'a.test.ts > both', outcomes: ['listOrders.200'] }]), outcomes: counted(['listOrders.200']) },
      'b.json': {
        ...withTests([
          { name: 'a.test.ts > both', outcomes: ['cancelOrder.204'] },
          { name: 'b.test.ts > other', outcomes: ['cancelOrder.204'] },
        ]),
        outcomes: counted(['cancelOrder.204']),
      },
      'c.json': bare,
    })
    const { coverage, files } = readCoverage([folder])
    expect(files).toBe(3)
    expect(coverage.tests).toEqual([
      { name: 'a.test.ts > both', outcomes: ['listOrders.200', 'cancelOrder.204'] },
      { name: 'b.test.ts > other', outcomes: ['cancelOrder.204'] },
    ])
    const byOutcome = testsByOutcome(coverage)
    expect(byOutcome.get('cancelOrder.204')).toEqual(['a.test.ts > both', 'b.test.ts > other'])
    expect(byOutcome.get('listOrders.200')).toEqual(['a.test.ts > both'])
    // Counted by the older file, seen by no named test.
    expect(byOutcome.get('getPetById.200')).toEqual([])
    expect(coverage.outcomes.find((outcome) => outcome.id === 'getPetById.200')?.count).toBe(2)
    expect([...byOutcome.keys()]).toEqual(coverage.outcomes.map((outcome) => outcome.id))
  })

  test('the tests each file left out past its bound add up', () => {
    const folder = folderOf({ 'a.json': withTests([], { testsLeftOut: 2 }), 'b.json': withTests([], { testsLeftOut: 3 }) })
    expect(readCoverage([folder]).coverage.testsLeftOut).toBe(5)
  })

  test('the merge keeps a file’s bound: past 10,000 tests the rest are counted as left out, and the result merges again', () => {
    const tests = (prefix: string) =>
      Array.from({ length: 6000 }, (_, index) => ({ name: `${prefix}.test.ts > ${index}`, outcomes: ['listOrders.200'] }))
    const folder = folderOf({ 'a.json': withTests(tests('a')), 'b.json': withTests(tests('b')) })
    const { coverage } = readCoverage([folder])
    expect([coverage.tests.length, coverage.testsLeftOut]).toEqual([10_000, 2000])
    const again = folderOf({ 'merged.json': coverage })
    expect(readCoverage([again]).coverage.tests).toHaveLength(10_000)
  })

  test('recipes are made again for the base path the files’ simulator served, when every file agrees', () => {
    const at = (basePath: string) => ({ ...createSimulator({ baseUrl: `https://api.petstore.example${basePath}` }).coverage() })
    const listPath = (folder: string) => {
      const steps = readCoverage([folder]).coverage.outcomes.find((outcome) => outcome.id === 'cancelOrder.204')?.recipe.steps ?? []
      const last = steps.at(-1)
      return last !== undefined && 'request' in last ? last.request.path : undefined
    }
    expect(listPath(folderOf({ 'a.json': at('/api'), 'b.json': at('/api') }))).toBe('/api/store/orders/1')
    // Files that disagree, or a hostile path, give the default base.
    expect(listPath(folderOf({ 'a.json': at('/api'), 'b.json': at('/v2') }))).toBe('/v1/store/orders/1')
  })

  test('--json carries the tests, and on each outcome the names of those that saw it', () => {
    const folder = folderOf({ 'a.json': withTests([{ name: 'a.test.ts > lists', outcomes: ['listOrders.200'] }]) })
    const { code, stdout } = run(folder, '--json')
    expect(code).toBe(0)
    const merged = JSON.parse(stdout) as Coverage
    expect(merged.tests).toEqual([{ name: 'a.test.ts > lists', outcomes: ['listOrders.200'] }])
    expect(merged.outcomes[0]?.tests).toEqual(['a.test.ts > lists'])
    expect(merged.outcomes[1]?.tests).toEqual([])
  })
})

describe('a file whose tests break the bounds is refused in one line, exit 2', () => {
  const many = Array.from({ length: 10_001 }, (_, index) => ({ name: `t.test.ts > ${index}`, outcomes: [] }))
  test.each([
    ['more than 10,000 tests', withTests(many), 'tests: more than 10,000 tests.'],
    ['a name over 200 characters', withTests([{ name: 'x'.repeat(201), outcomes: [] }]), 'a test name has more than 200 characters.'],
    ['a control character', withTests([{ name: 'a\u001b[2Jb', outcomes: [] }]), 'a test name holds a control character.'],
    ['an empty name', withTests([{ name: '', outcomes: [] }]), 'a test name is empty.'],
    [
      'an outcome unknown',
      withTests([{ name: 'a', outcomes: ['listOrders.418.teapot'] }]),
      'names an outcome this version does not document: listOrders.418.teapot.',
    ],
    ['not a list', withTests({ name: 'a' }), 'tests:'],
    ['a name not a string', withTests([{ name: 7, outcomes: [] }]), 'tests.0.name:'],
    ['an unknown field', withTests([{ name: 'a', outcomes: [], secret: 'sk_live_1234' }]), 'tests.0.secret:'],
    ['testsLeftOut of 0', withTests([], { testsLeftOut: 0 }), 'testsLeftOut:'],
  ])('%s', (_, content, message) => {
    const { code, stdout, stderr } = run(folderOf({ 'bad.json': content }))
    expect(code).toBe(2)
    expect(stdout).toBe('')
    expect(stderr).toContain(message)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).not.toContain('sk_live')
    expect(stderr).not.toContain('\u001b')
  })
})
