import { expect, test } from 'vitest'
import { createCoverageCounter } from './coverage-counter.js'
import { MAX_TEST_NAME, MAX_TESTS, runningTests, testEnded, testName, testStarted } from './current-test.js'
import { journalRecord } from '../../../test/support/journal-record.js'

const SUNSET = new Date('2027-01-01T00:00:00Z')

const record = journalRecord
const LIST = record({ operation: 'listOrders', status: 200 })
const SHIPPED = record({ operation: 'cancelOrder', status: 409, code: 'order_already_shipped' })

/** A counter whose running test is whatever `running.name` says now. */
function counterWithTests() {
  const running: { name: string | undefined } = { name: undefined }
  return { running, counter: createCoverageCounter({ tests: () => (running.name === undefined ? [] : [running.name]) }) }
}

test('each counted answer is attributed to the test running then, its outcomes in the document order', () => {
  const { running, counter } = counterWithTests()
  counter.count(LIST)
  running.name = 'a.test.ts > cancels'
  counter.count(SHIPPED)
  counter.count(LIST)
  counter.count(LIST)
  running.name = 'a.test.ts > lists'
  counter.count(LIST)
  running.name = undefined
  counter.count(SHIPPED)
  const coverage = counter.report(SUNSET)
  expect(coverage.tests).toEqual([
    { name: 'a.test.ts > cancels', outcomes: ['listOrders.200', 'cancelOrder.409.order_already_shipped'] },
    { name: 'a.test.ts > lists', outcomes: ['listOrders.200'] },
  ])
  expect(coverage.outcomes.find((outcome) => outcome.id === 'listOrders.200')?.count).toBe(4)
  expect(coverage.testsLeftOut).toBeUndefined()
})

test('without a test named, the coverage has no tests field: the shape it always had', () => {
  const { counter } = counterWithTests()
  counter.count(LIST)
  expect(Object.keys(counter.report(SUNSET))).toEqual(['outcomes', 'exercised', 'total', 'provoked', 'deprecated'])
})

test("what a control provoked is not the service's outcome: no test is named for it", () => {
  const { running, counter } = counterWithTests()
  running.name = 'a.test.ts > prefers'
  counter.count(record({ operation: 'cancelOrder', status: 409, code: 'order_already_shipped', answeredBy: 'prefer' }))
  counter.count(record({ operation: 'listOrders', status: 503, code: 'service_unavailable', answeredBy: 'fault', fault: 'status' }))
  expect(counter.report(SUNSET).tests).toBeUndefined()
})

test('clear() and a restore forget the tests with the counts', () => {
  const { running, counter } = counterWithTests()
  running.name = 'a.test.ts > lists'
  counter.count(LIST)
  const snapshot = counter.snapshot()
  counter.clear()
  expect(counter.report(SUNSET).tests).toBeUndefined()
  counter.count(LIST)
  counter.restore(snapshot)
  expect(counter.report(SUNSET).tests).toBeUndefined()
  expect(counter.report(SUNSET).exercised).toBe(1)
})

test(`past ${MAX_TESTS} tests a state names no more, and counts how many it left out`, () => {
  const { running, counter } = counterWithTests()
  for (let index = 0; index < MAX_TESTS + 3; index++) {
    running.name = `many.test.ts > test ${index}`
    counter.count(LIST)
    counter.count(LIST)
  }
  // A test named already still gets its new outcomes.
  running.name = 'many.test.ts > test 0'
  counter.count(SHIPPED)
  const coverage = counter.report(SUNSET)
  expect(coverage.tests).toHaveLength(MAX_TESTS)
  expect(coverage.tests?.[0]?.outcomes).toEqual(['listOrders.200', 'cancelOrder.409.order_already_shipped'])
  expect(coverage.testsLeftOut).toBe(3)
  expect(coverage.outcomes.find((outcome) => outcome.id === 'listOrders.200')?.count).toBe(2 * (MAX_TESTS + 3))
})

test('a name is kept at most 200 characters, cut with a marker, its control characters made spaces', () => {
  const { running, counter } = counterWithTests()
  running.name = `long.test.ts > ${'x'.repeat(10_000)}`
  counter.count(LIST)
  counter.count(LIST)
  running.name = 'a.test.ts > two\nlines\u001b[2J'
  counter.count(LIST)
  const names = counter.report(SUNSET).tests?.map((entry) => entry.name) ?? []
  expect(names).toHaveLength(2)
  expect(names[0]).toHaveLength(MAX_TEST_NAME)
  expect(names[0]?.endsWith('x…')).toBe(true)
  expect(names[1]).toBe('a.test.ts > two lines [2J')
  // A surrogate pair is never halved.
  expect(testName(`${'a'.repeat(MAX_TEST_NAME - 2)}😀😀`)).toBe(`${'a'.repeat(MAX_TEST_NAME - 2)}…`)
})

test('the running tests are one process-wide slot: what a runner entry sets, any copy of the package reads', () => {
  testStarted('b.test.ts > reads')
  try {
    expect(runningTests()).toEqual(['b.test.ts > reads'])
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('petstore-orders-simulator.current-test')]).toEqual(['b.test.ts > reads'])
    const counter = createCoverageCounter()
    counter.count(LIST)
    expect(counter.report(SUNSET).tests).toEqual([{ name: 'b.test.ts > reads', outcomes: ['listOrders.200'] }])
  } finally {
    testEnded('b.test.ts > reads')
  }
  expect(runningTests()).toEqual([])
})

test('tests running at once (concurrent ones, a subtest inside its test) each get the answer; one ending leaves the others', () => {
  const counter = createCoverageCounter()
  testStarted('c.test.ts > parent')
  testStarted('c.test.ts > parent > child')
  testStarted('c.test.ts > concurrent')
  try {
    const seen = runningTests()
    testEnded('c.test.ts > parent > child')
    // The list a request arrived with is its own: later changes do not move it.
    expect(seen).toEqual(['c.test.ts > parent', 'c.test.ts > parent > child', 'c.test.ts > concurrent'])
    expect(runningTests()).toEqual(['c.test.ts > parent', 'c.test.ts > concurrent'])
    counter.count(SHIPPED, seen)
    counter.count(LIST)
  } finally {
    testEnded('c.test.ts > concurrent')
    testEnded('c.test.ts > parent')
  }
  expect(runningTests()).toEqual([])
  expect(counter.report(SUNSET).tests).toEqual([
    { name: 'c.test.ts > parent', outcomes: ['listOrders.200', 'cancelOrder.409.order_already_shipped'] },
    { name: 'c.test.ts > parent > child', outcomes: ['cancelOrder.409.order_already_shipped'] },
    { name: 'c.test.ts > concurrent', outcomes: ['listOrders.200', 'cancelOrder.409.order_already_shipped'] },
  ])
})

test("each outcome carries its recipe, its requests under the simulator's base path", () => {
  const coverage = createCoverageCounter({ basePath: '/api' }).report(SUNSET)
  const shipped = coverage.outcomes.find((outcome) => outcome.id === 'cancelOrder.409.order_already_shipped')
  expect(shipped?.recipe.steps.at(-1)).toMatchObject({
    request: { method: 'DELETE', path: expect.stringMatching(/^\/api\/store\/orders\//) },
  })
  expect(coverage.outcomes.every((outcome) => outcome.recipe.text.length > 0)).toBe(true)
})
