import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { getResponse } from 'msw'
import { expect, test, vi } from 'vitest'
import { createSimulator } from '../src/index.js'
import '../src/vitest.js'
import { ROOT } from './support/cli-process.js'
import { runJest } from './support/jest-project.js'
import { linkedProject } from './support/linked-project.js'

// Each test runs Jest in a child process: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 30_000 })

// Jest itself, on small projects of its own; README's examples run in test/docs.test.ts, fresh installs in test/package/smoke.mjs.
const WORK = join(ROOT, '.doc-test')

const requireNode = "const { setupSimulatorServer } = require('petstore-orders-simulator/node')\n"
const listOnce = `${requireNode}
const { sim, server } = setupSimulatorServer({ scenario: 'pending' })
beforeAll(() => server.listen())
afterAll(() => server.close())
test('lists', async () => {
  const response = await fetch('https://api.petstore.example/v1/store/orders', { headers: { Authorization: 'Bearer petstore-test-key' } })
  expect(response.status).toBe(200)
})
`

test('Jest without the preset stops at one line that names the line to add', async () => {
  const folder = linkedProject(join(WORK, 'jest-no-preset'), 'commonjs', { 'orders.test.js': listOnce })
  const run = await runJest(folder)
  expect(run.code).toBe(1)
  expect(run.output).toContain(
    'petstore-orders-simulator: Jest loads it, msw and their ES modules only through its preset. Add preset: \'petstore-orders-simulator\' to your Jest config (jest.config.js, or "jest" in package.json), and leave transformIgnorePatterns to it.',
  )
  expect(run.output).not.toContain('Must use import to load ES Module')
}, 120_000)

test('the preset composes with a project of its own: its setupFilesAfterEnv still run, and its own files keep babel-jest', async () => {
  const config = "module.exports = { preset: 'petstore-orders-simulator', setupFilesAfterEnv: ['./own-setup.js'] }\n"
  const folder = linkedProject(join(WORK, 'jest-composed'), 'commonjs', {
    'jest.config.js': config,
    'own-setup.js': 'globalThis.ownSetupRan = true\n',
    'orders.test.js': `${listOnce}
jest.mock('./greeting.js', () => 'mocked')
test('the project setup ran, the matcher is there, and jest.mock is hoisted above require', () => {
  expect(globalThis.ownSetupRan).toBe(true)
  expect(typeof expect(sim).toHaveReceived).toBe('function')
  expect(require('./greeting.js')).toBe('mocked')
})
`,
    'greeting.js': "module.exports = 'real'\n",
  })
  const run = await runJest(folder)
  expect(run.code, run.output).toBe(0)
  expect(run.report?.numPassedTests).toBe(2)
}, 120_000)

const MESSAGES =
  "const { createSimulator } = require('petstore-orders-simulator')\nconst { getResponse } = require('msw')\n" +
  `
const failureOf = (assert) => {
  try {
    assert()
  } catch (error) {
    return error.message
  }
  return 'passed'
}
test('writes the failure messages of toHaveReceived', async () => {
  const sim = createSimulator({ scenario: 'pending' })
  await getResponse([...sim.handlers], new Request('https://api.petstore.example/v1/store/orders/1', { method: 'DELETE' }))
  const messages = [
    failureOf(() => expect(sim).toHaveReceived({ operation: 'cancelOrder', orderId: 1, status: 204 }, { times: 1 })),
    failureOf(() => expect(sim).not.toHaveReceived()),
    failureOf(() => expect({}).toHaveReceived()),
  ]
  require('node:fs').writeFileSync('messages.json', JSON.stringify(messages))
})
`

test("Jest's toHaveReceived fails with the same messages as vitest's", async () => {
  const folder = linkedProject(join(WORK, 'jest-messages'), 'commonjs', {
    'jest.config.js': "module.exports = { preset: 'petstore-orders-simulator' }\n",
    'messages.test.js': MESSAGES,
  })
  const run = await runJest(folder)
  expect(run.code, run.output).toBe(0)
  const inJest = JSON.parse(readFileSync(join(folder, 'messages.json'), 'utf8')) as string[]

  const sim = createSimulator({ scenario: 'pending' })
  await getResponse([...sim.handlers], new Request('https://api.petstore.example/v1/store/orders/1', { method: 'DELETE' }))
  const failureOf = (assert: () => void) => {
    try {
      assert()
    } catch (error) {
      return (error as Error).message
    }
    return 'passed'
  }
  expect(inJest).toEqual([
    failureOf(() => expect(sim).toHaveReceived({ operation: 'cancelOrder', orderId: 1, status: 204 }, { times: 1 })),
    failureOf(() => expect(sim).not.toHaveReceived()),
    failureOf(() => expect({}).toHaveReceived()),
  ])
  expect(inJest[0]).toMatch(
    /^Expected the simulator to have received \{"operation":"cancelOrder","orderId":"1","status":204\} 1 time; 0 matched\./,
  )
  expect(inJest[0]).toContain('DELETE /v1/store/orders/1 -> 401 (cancelOrder)')
  expect(inJest[1]).toMatch(/^Expected the simulator not to have received \{\}; 1 matched\./)
  expect(inJest[2]).toBe('toHaveReceived expects a simulator or one of its sessions (createSimulator(), sim.session(id)).')
}, 120_000)

test("in Jest's ES module mode, one setupFilesAfterEnv entry from petstore-orders-simulator/jest registers the matcher", async () => {
  const source = `import { setupSimulatorServer } from 'petstore-orders-simulator/node'

const { sim, server } = setupSimulatorServer({ scenario: 'shipped' })
beforeAll(() => server.listen())
afterAll(() => server.close())
test('a shipped order is not cancelled, and the matcher says so', async () => {
  const response = await fetch('https://api.petstore.example/v1/store/orders/1', { method: 'DELETE', headers: { Authorization: 'Bearer petstore-test-key' } })
  expect(response.status).toBe(409)
  expect(sim).toHaveReceived({ operation: 'cancelOrder', orderId: 1, status: 409 }, { times: 1 })
})
`
  const folder = linkedProject(join(WORK, 'jest-setup-file'), 'module', {
    'jest.config.js': "export default { setupFilesAfterEnv: ['petstore-orders-simulator/jest'] }\n",
    'orders.test.js': source,
  })
  const run = await runJest(folder, { esm: true })
  expect(run.code, run.output).toBe(0)
  expect(run.report?.numPassedTests).toBe(1)
}, 120_000)
