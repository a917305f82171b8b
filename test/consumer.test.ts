import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import type { AddressInfo } from 'node:net'
import { expect, onTestFinished, test, vi } from 'vitest'
import { linkedProject } from './support/linked-project.js'

const root = dirname(dirname(fileURLToPath(import.meta.url)))

/** A folder outside the repository, a package of `type` with this package and msw linked into node_modules. */
/** A temporary folder, removed once the test is over. */
function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
  return folder
}
const linkedConsumer = (type: 'module' | 'commonjs') => linkedProject(temporaryFolder(`petstore-consumer-${type}-`), type)

/** Runs a script of these lines in a fresh consumer of `type`, and parses the JSON it prints. */
function runInConsumer(type: 'module' | 'commonjs', lines: string[]): unknown {
  const consumer = linkedConsumer(type)
  const file = type === 'module' ? 'script.mjs' : 'script.cjs'
  writeFileSync(join(consumer, file), lines.join('\n'))
  return JSON.parse(execFileSync(process.execPath, [file], { cwd: consumer, encoding: 'utf8', timeout: 30_000 }))
}

test('a consumer outside the repository imports the built package by name and drives it through its own setupServer', () => {
  expect(existsSync(join(root, 'dist/src/index.js')), 'run "npm run build" first (npm test does)').toBe(true)
  const consumer = linkedConsumer('module')
  copyFileSync(join(root, 'test/fixtures/consumer.mjs'), join(consumer, 'consumer.mjs'))

  const output = execFileSync(process.execPath, ['consumer.mjs'], { cwd: consumer, encoding: 'utf8', timeout: 30_000 })

  expect(JSON.parse(output)).toEqual({
    pending: 204,
    afterCancel: 'cancelled',
    shipped: [409, 'order_already_shipped'],
    missing: 404,
    badKey: [401, 'unauthorized'],
    errorCodes: 33,
    contract: '1.0.0',
  })
})

test('a CommonJS consumer require()s the package, ./node and ./server in plain Node.js, outside Jest', () => {
  const output = runInConsumer('commonjs', [
    "const { createSimulator } = require('petstore-orders-simulator')",
    "const { setupSimulatorServer } = require('petstore-orders-simulator/node')",
    "const { startSimulatorServer } = require('petstore-orders-simulator/server')",
    "const { sim } = setupSimulatorServer({ scenario: 'shipped' })",
    'console.log(JSON.stringify([createSimulator().orders().length > 0, sim.orders()[0].status, typeof startSimulatorServer]))',
  ])

  expect(output).toEqual([true, 'shipped', 'function'])
})

test("the built package's server answers its admin API, the admin document and the QA panel (they find the package folder from dist/)", () => {
  const output = runInConsumer('module', [
    "import { startSimulatorServer } from 'petstore-orders-simulator/server'",
    "const running = await startSimulatorServer({ port: 0, scenario: 'pending' })",
    'const origin = new URL(running.url).origin',
    "const statuses = await Promise.all(['/__sim/state', '/__sim/openapi.json', '/__sim/'].map(async (path) => (await fetch(origin + path)).status))",
    'await running.close()',
    'console.log(JSON.stringify(statuses))',
  ])

  expect(output).toEqual([200, 200, 200])
})

test('petstore-orders-simulator/node hands back a simulator and a setupServer holding its handlers', async () => {
  const { setupSimulatorServer } = await import('../src/node.js')
  const { sim, server } = setupSimulatorServer({ scenario: 'shipped' })
  server.listen()
  try {
    const response = await fetch('https://api.petstore.example/v1/store/orders/1', {
      method: 'DELETE',
      headers: { Authorization: 'Bearer petstore-test-key' },
    })
    expect(response.status).toBe(409)
    expect(sim.orders()[0]?.status).toBe('shipped')
  } finally {
    server.close()
  }
})

test.each([
  ['error', 'refused'],
  ['bypass', 200],
] as const)(
  'onUnhandledRequest "%s" of setupSimulatorServer reaches the installed msw under its own name: an unmatched request is %s',
  async (strategy, outcome) => {
    const elsewhere = createServer((_req, res) => res.end('real back end'))
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve))
    const { setupSimulatorServer } = await import('../src/node.js')
    const { server } = setupSimulatorServer({ onUnhandledRequest: strategy })
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    server.listen()
    try {
      const { port } = elsewhere.address() as AddressInfo
      const result = await fetch(`http://127.0.0.1:${port}/not-the-api`).then(
        (response) => response.status,
        () => 'refused',
      )
      expect(result).toBe(outcome)
    } finally {
      server.close()
      quiet.mockRestore()
      elsewhere.close()
    }
  },
)

test("package.json declares msw as a peer (the consumer's own copy builds and runs the handlers) and exports every entry", () => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    peerDependencies: Record<string, string>
    peerDependenciesMeta: Record<string, unknown>
    dependencies: Record<string, string>
    exports: Record<string, unknown>
  }
  expect(manifest.peerDependencies['msw']).toBe('^2.12.0 || ^3.0.0')
  // Optional: the package and sim.fetch run without it (test/package/smoke.mjs installs it alone).
  expect(manifest.peerDependenciesMeta['msw']).toEqual({ optional: true })
  expect(manifest.dependencies['msw']).toBeUndefined()
  expect(Object.keys(manifest.exports)).toEqual([
    '.',
    './node',
    './browser',
    './server',
    './vitest',
    './vite',
    './jest',
    './bun',
    './chai',
    './jest-preset',
    './node-test',
    './playwright',
    './storybook',
    './openapi.json',
    './admin-openapi.json',
    './scenarios/*.json',
    './package.json',
  ])
})

/**
 * A consumer whose node_modules holds a fake msw of `version` beside a copy of
 * the built package, every other dependency linked from this project.
 */
function consumerWithMsw(version: string): string {
  const consumer = temporaryFolder(`petstore-msw-${version}-`)
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ type: 'module', private: true }))
  const modules = join(consumer, 'node_modules')
  mkdirSync(modules)
  // The project's dependencies, wherever they are installed (the msw 3 matrix runs from an overlay).
  const installed = dirname(dirname(createRequire(import.meta.url).resolve('express/package.json')))
  for (const entry of readdirSync(installed)) {
    if (!['msw', 'msw3', '.bin', 'petstore-orders-simulator'].includes(entry))
      symlinkSync(join(installed, entry), join(modules, entry), 'dir')
  }
  const fake = join(modules, 'msw')
  mkdirSync(fake)
  writeFileSync(join(fake, 'package.json'), JSON.stringify({ name: 'msw', version, main: 'index.cjs' }))
  // msw 1 had `rest`, not `http`.
  writeFileSync(join(fake, 'index.cjs'), 'exports.rest = {}; exports.http = undefined')
  const copy = join(modules, 'petstore-orders-simulator')
  for (const entry of ['package.json', 'dist/src', 'dist/vendor', 'dist/scenarios'])
    cpSync(join(root, entry), join(copy, entry), { recursive: true })
  return consumer
}

function importError(consumer: string): string {
  try {
    execFileSync(process.execPath, ['-e', "import('petstore-orders-simulator').then(() => console.log('imported'))"], {
      cwd: consumer,
      encoding: 'utf8',
      stdio: 'pipe',
      timeout: 30_000,
    })
    return ''
  } catch (error) {
    return String((error as { stderr?: string }).stderr)
  }
}

test('with msw 1.x installed, importing the package fails with one line naming what to install', () => {
  const stderr = importError(consumerWithMsw('1.3.5'))
  expect(stderr).toContain(
    'Error: petstore-orders-simulator: msw 1.3.5 is too old; the simulator needs msw 2.12+ or msw 3. Install one: npm install --save-dev msw@^3 (Node.js 22.12+) or msw@^2.12 (Node.js 20.19+).',
  )
  expect(stderr).not.toMatch(/node_modules\/msw\//)
})

const [nodeMajor = 0, nodeMinor = 0] = process.versions.node.split('.').map(Number)
const before2212 = nodeMajor < 22 || (nodeMajor === 22 && nodeMinor < 12)
// Every leg checks its side: Node 20 (npm test) the refusal, Node 22.12+ (the matrix) that msw 3 loads there.
test(`msw 3 installed: ${before2212 ? 'on Node 20 the import fails with one line saying to install msw 2' : 'on Node 22.12+ the import loads'}`, () => {
  const stderr = importError(consumerWithMsw('3.0.5'))
  if (!before2212) {
    expect(stderr).toBe('')
    return
  }
  expect(stderr).toContain(
    `Error: petstore-orders-simulator: msw 3.0.5 needs Node.js 22.12 or newer, and this is Node.js ${process.versions.node}. Install msw 2 (npm install --save-dev msw@^2.12) or use Node.js 22.12+.`,
  )
})
