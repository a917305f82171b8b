// What a consumer's vitest suite pays for the package (issue 43): the same five tests written three
// ways, in N files each, run by vitest 4 with its defaults (isolation on), the ways taking turns.
//   readme     README's quick start: setupSimulatorServer from petstore-orders-simulator/node and
//              the petstore-orders-simulator/vitest matchers, its header copied from README.md as written
//   sim-fetch  createSimulator from petstore-orders-simulator and sim.fetch, no msw
//   msw-mock   a hand-rolled msw 2 mock: http.get and http.delete handlers over a Map of orders
// The five tests: list 200, cancel a pending order 204, cancel a shipped order 409, a bad key 401 on
// the list, and a reset before each test (the last test cancels the order an earlier test cancelled).
// The package comes from `npm pack` of this repository (dist/ must be built) and is installed with
// msw@2 and vitest@4 from the registry into a scratch project in the temp folder, outside the repository.
// vitest runs as `node node_modules/vitest/vitest.mjs run <folder>` (what `npx vitest run` starts,
// without npm's own start-up, which would add the same few hundred ms to every way and pull the
// ratios towards 1). A run that fails aborts the bench, its output shown.
// Usage: npm run bench:suite -- [--files N (40)] [--rounds R (5)] [--keep] [--tarball path/to/package.tgz]
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, stripVTControlCharacters } from 'node:util'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const { values: flags } = parseArgs({
  options: {
    files: { type: 'string', default: '40' },
    rounds: { type: 'string', default: '5' },
    keep: { type: 'boolean', default: false },
    tarball: { type: 'string' },
  },
})
const temps = []
function cleanUp() {
  if (flags.keep) return
  for (const dir of temps) rmSync(dir, { recursive: true, force: true })
}
const FILES = Number(flags.files)
const ROUNDS = Number(flags.rounds)
for (const [name, value] of [
  ['--files', FILES],
  ['--rounds', ROUNDS],
]) {
  if (!Number.isInteger(value) || value < 1) fail(`${name} must be a whole number of at least 1.`)
}
const WAYS = ['readme', 'sim-fetch', 'msw-mock']
const BASELINE = 'msw-mock'
const LABELS = {
  readme: "README's way (setupSimulatorServer + /vitest)",
  'sim-fetch': 'sim.fetch, no msw',
  'msw-mock': 'hand-rolled msw 2 mock over a Map',
}

function fail(message, detail) {
  console.error(`bench:suite: ${message}`)
  if (detail) console.error(detail)
  cleanUp()
  process.exit(1)
}

function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  temps.push(dir)
  return dir
}
process.on('SIGINT', () => {
  cleanUp()
  process.exit(130)
})

// The child processes get no NODE_PATH and no NODE_OPTIONS: nothing of this repository's node_modules.
const childEnv = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
delete childEnv.NODE_PATH
delete childEnv.NODE_OPTIONS
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

// ---------------------------------------------------------------------------------------------
// README's vitest quick start: the ts block that starts with `// orders.test.ts`. Its header (up to
// `const API`) is README's way's setup, as written; its own tests are run once, as written, below.
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
const readmeExample = /```ts\n(\/\/ orders\.test\.ts[^\n]*\n[\s\S]*?)```/.exec(readme)?.[1]
if (readmeExample === undefined) fail('README.md has no ts block that starts with "// orders.test.ts".')
const readmeHeader = readmeExample.slice(0, readmeExample.indexOf('\nconst API'))
for (const needed of ['setupSimulatorServer', "'petstore-orders-simulator/vitest'", 'server.listen()', 'sim.reset(']) {
  if (!readmeHeader.includes(needed)) fail(`README's vitest example's setup (before "const API") no longer has ${needed}:`, readmeHeader)
}

// The five tests, the same text in every way. Each way defines `request` (a fetch), `reset(name?)`.
const TESTS = `
const API = 'https://api.petstore.example/v1'
const headers = { Authorization: 'Bearer petstore-test-key' }
const cancel = (id: number) => request(\`\${API}/store/orders/\${id}\`, { method: 'DELETE', headers })

test('lists the orders', async () => {
  const response = await request(\`\${API}/store/orders\`, { headers })
  expect(response.status).toBe(200)
  expect((await response.json()).map((order: { id: number }) => order.id)).toEqual([1, 2, 3])
})

test('cancelling a pending order', async () => {
  const response = await cancel(1)
  expect(response.status).toBe(204)
})

test('a shipped order cannot be cancelled', async () => {
  await reset('shipped')
  const response = await cancel(1)
  expect(response.status).toBe(409)
  expect(await response.json()).toMatchObject({ code: 'order_already_shipped', status: 409 })
})

test('a bad key is refused', async () => {
  const response = await request(\`\${API}/store/orders\`, { headers: { Authorization: 'Bearer not-the-key' } })
  expect(response.status).toBe(401)
  expect(await response.json()).toMatchObject({ code: 'unauthorized', status: 401 })
})

test('the reset before each test gives back the order an earlier test cancelled', async () => {
  expect((await cancel(1)).status).toBe(204)
  const again = await cancel(1)
  expect(again.status).toBe(409)
  expect(await again.json()).toMatchObject({ code: 'order_not_pending' })
  await reset()
  expect((await cancel(1)).status).toBe(204)
})
`

const FIXTURES = {
  readme: `${readmeHeader}
// The bench's part: the global fetch, which msw intercepts once the server listens.
const request = (input: string, init?: RequestInit) => fetch(input, init)
const reset = (name?: 'pending' | 'shipped') => (name === undefined ? sim.reset() : sim.reset(name))
${TESTS}`,

  'sim-fetch': `// orders.test.ts: sim.fetch, no msw
import { beforeEach, expect, test } from 'vitest'
import { createSimulator } from 'petstore-orders-simulator'

const sim = createSimulator({ scenario: 'pending' })
beforeEach(async () => {
  await sim.reset('pending')
})

const request = sim.fetch
const reset = (name?: 'pending' | 'shipped') => (name === undefined ? sim.reset() : sim.reset(name))
${TESTS}`,

  'msw-mock': `// orders.test.ts: a hand-rolled msw 2 mock over a Map of orders
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'

type Status = 'pending' | 'shipped' | 'cancelled'
interface Order { id: number; petId: number; quantity: number; shipDate: string; complete: boolean; status: Status }
const seed = (status: Status, petBase: number): Order[] =>
  [1, 2, 3].map((id) => ({ id, petId: petBase + id, quantity: 1, shipDate: \`2026-12-0\${id}T09:00:00.000Z\`, complete: status === 'shipped', status }))
const SCENARIOS = { pending: seed('pending', 100), shipped: seed('shipped', 200) }
const orders = new Map<number, Order>()
let current: keyof typeof SCENARIOS = 'pending'
function resetOrders(name = current) {
  current = name
  orders.clear()
  for (const order of SCENARIOS[name]) orders.set(order.id, { ...order })
}

const error = (status: number, code: string, message: string) => HttpResponse.json({ code, message, status }, { status })
const authorized = (request: Request) => request.headers.get('authorization') === 'Bearer petstore-test-key'
const server = setupServer(
  http.get('*/v1/store/orders', ({ request }) => {
    if (!authorized(request)) return error(401, 'unauthorized', 'A valid API key is required.')
    return HttpResponse.json([...orders.values()].map(({ status, ...order }) => order))
  }),
  http.delete('*/v1/store/orders/:orderId', ({ request, params }) => {
    if (!authorized(request)) return error(401, 'unauthorized', 'A valid API key is required.')
    const order = orders.get(Number(params.orderId))
    if (order === undefined) return error(404, 'order_not_found', \`Order \${params.orderId} was not found.\`)
    if (order.status === 'shipped') return error(409, 'order_already_shipped', \`Order \${order.id} has already shipped.\`)
    if (order.status !== 'pending') return error(409, 'order_not_pending', \`Order \${order.id} is not pending.\`)
    order.status = 'cancelled'
    return new HttpResponse(null, { status: 204 })
  }),
)

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(() => resetOrders('pending'))
afterAll(() => server.close())

const request = (input: string, init?: RequestInit) => fetch(input, init)
const reset = (name?: 'pending' | 'shipped') => resetOrders(name)
${TESTS}`,
}

// ---------------------------------------------------------------------------------------------
const project = tempDir('petstore-suite-bench-')
let tarball = flags.tarball === undefined ? undefined : resolve(flags.tarball)
if (tarball === undefined) {
  console.log('== npm pack --ignore-scripts (dist/ as built) ==')
  if (!existsSync(join(ROOT, 'dist/src/index.js'))) fail('dist/ is not built: run `npm run build` first.')
  const packDir = tempDir('petstore-suite-pack-')
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], {
      cwd: ROOT,
      env: childEnv,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  )
  tarball = join(packDir, packed[0].filename)
} else if (!existsSync(tarball)) {
  fail(`--tarball ${tarball}: no such file.`)
}
console.log(tarball)

console.log(`== npm install (the tarball, msw@2, vitest@4) in ${project} ==`)
writeFileSync(join(project, 'package.json'), `${JSON.stringify({ name: 'suite-bench', private: true, type: 'module' }, null, 2)}\n`)
const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--save-dev', tarball, 'msw@2', 'vitest@4'], {
  cwd: project,
  env: childEnv,
  encoding: 'utf8',
})
if (install.status !== 0) fail('npm install failed:', `${install.stdout}\n${install.stderr}`)
const versionOf = (name) => JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')).version
const versions = {
  node: process.version,
  msw: versionOf('msw'),
  vitest: versionOf('vitest'),
  package: versionOf('petstore-orders-simulator'),
}
console.log(`node ${versions.node}, msw ${versions.msw}, vitest ${versions.vitest}, petstore-orders-simulator ${versions.package}`)

const pad = String(FILES).length
for (const way of WAYS) {
  mkdirSync(join(project, 'tests', way), { recursive: true })
  for (let file = 1; file <= FILES; file++) {
    writeFileSync(join(project, 'tests', way, `orders-${String(file).padStart(pad, '0')}.test.ts`), FIXTURES[way])
  }
}
mkdirSync(join(project, 'readme-example'))
writeFileSync(join(project, 'readme-example', 'orders.test.ts'), readmeExample)

const VITEST = join(project, 'node_modules/vitest/vitest.mjs')
/** One `vitest run <filters...>` in the project: its wall time and the numbers of its summary. */
function vitest(filters) {
  const started = performance.now()
  const run = spawnSync(process.execPath, [VITEST, 'run', ...filters], {
    cwd: project,
    env: childEnv,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  const wallMs = performance.now() - started
  const output = stripVTControlCharacters(`${run.stdout}${run.stderr}`)
  const ms = (text) => (text.endsWith('ms') ? Number(text.slice(0, -2)) : Number(text.slice(0, -1)) * 1000)
  const duration = /Duration\s+(\S+)\s+\(transform (\S+), setup (\S+), import (\S+), tests (\S+), environment (\S+)/.exec(output)
  const tests = /Tests\s+(\d+) passed \((\d+)\)/.exec(output)
  return {
    ok: run.status === 0,
    output,
    wallMs,
    passed: tests ? Number(tests[1]) : 0,
    total: tests ? Number(tests[2]) : 0,
    duration: duration && {
      durationMs: ms(duration[1]),
      transformMs: ms(duration[2]),
      setupMs: ms(duration[3]),
      importMs: ms(duration[4]),
      testsMs: ms(duration[5]),
      environmentMs: ms(duration[6]),
    },
  }
}

// README's example as written, once: reported, not fatal (issue 43 item 3 is about quick starts).
console.log("== README's vitest example, as written (readme-example/orders.test.ts) ==")
const asWritten = vitest(['readme-example/'])
const pactsWritten = existsSync(join(project, 'pacts'))
console.log(
  asWritten.ok
    ? `passes: ${asWritten.passed} of ${asWritten.total} tests${pactsWritten ? '; it wrote pacts/ in the project' : ''}`
    : `FAILS as written:\n${asWritten.output}`,
)
rmSync(join(project, 'pacts'), { recursive: true, force: true })

// One file of each way, untimed: the tests must pass, and the disk cache is warm for the rounds.
console.log('== warm-up: one file of each way ==')
const first = `orders-${'1'.padStart(pad, '0')}.test.ts`
const warm = vitest(WAYS.map((way) => `tests/${way}/${first}`))
if (!warm.ok || warm.passed !== 15) fail('the warm-up run failed:', warm.output)
console.log(`${warm.passed} tests passed`)

console.log(`== ${ROUNDS} round(s) of ${WAYS.length} runs, ${FILES} files each, order rotating ==`)
const runs = Object.fromEntries(WAYS.map((way) => [way, []]))
for (let round = 0; round < ROUNDS; round++) {
  const order = WAYS.map((_, index) => WAYS[(index + round) % WAYS.length])
  for (const way of order) {
    const run = vitest([`tests/${way}/`])
    if (!run.ok || run.passed !== FILES * 5 || run.total !== FILES * 5) {
      fail(`round ${round + 1}, ${way}: expected ${FILES * 5} passing tests, vitest says otherwise:`, run.output)
    }
    if (run.duration === null)
      fail(`round ${round + 1}, ${way}: no "Duration ... (transform ..., import ...)" line in vitest's output:`, run.output)
    runs[way].push(run)
    process.stdout.write(`  round ${round + 1} ${way}: ${(run.wallMs / 1000).toFixed(2)} s\n`)
  }
}

// ---------------------------------------------------------------------------------------------
const summary = Object.fromEntries(
  WAYS.map((way) => {
    const wall = runs[way].map((run) => run.wallMs)
    const field = (name) => median(runs[way].map((run) => run.duration[name]))
    return [
      way,
      {
        wallMs: median(wall),
        wallMsEach: wall.map(Math.round),
        importMsPerFile: field('importMs') / FILES,
        setupMsPerFile: field('setupMs') / FILES,
        testsMsPerFile: field('testsMs') / FILES,
        transformMs: field('transformMs'),
        durationMs: field('durationMs'),
      },
    ]
  }),
)
for (const way of WAYS) summary[way].ratio = summary[way].wallMs / summary[BASELINE].wallMs

console.log()
console.log(
  `${FILES} files x 5 tests per way, ${ROUNDS} round(s); node ${versions.node}, msw ${versions.msw}, vitest ${versions.vitest} (defaults, isolation on)`,
)
console.log()
console.log('| Way | wall time, median (each round) | vs hand-rolled msw mock | vitest import per file | tests per file |')
console.log('|---|---|---|---|---|')
for (const way of WAYS) {
  const row = summary[way]
  const each = row.wallMsEach.map((ms) => (ms / 1000).toFixed(2)).join(', ')
  console.log(
    `| ${LABELS[way]} | ${(row.wallMs / 1000).toFixed(2)} s (${each}) | ${row.ratio.toFixed(2)} x | ${row.importMsPerFile.toFixed(1)} ms | ${row.testsMsPerFile.toFixed(1)} ms |`,
  )
}
console.log()
console.log(
  JSON.stringify({
    bench: 'suite',
    files: FILES,
    rounds: ROUNDS,
    versions,
    readmeExampleAsWritten: { passes: asWritten.ok, tests: asWritten.total, wrotePacts: pactsWritten },
    ways: Object.fromEntries(
      WAYS.map((way) => {
        const { wallMs, wallMsEach, ratio, importMsPerFile, setupMsPerFile, testsMsPerFile, transformMs, durationMs } = summary[way]
        const round = (value, digits = 2) => Number(value.toFixed(digits))
        return [
          way,
          {
            wallMs: Math.round(wallMs),
            wallMsEach,
            ratio: round(ratio, 3),
            importMsPerFile: round(importMsPerFile),
            setupMsPerFile: round(setupMsPerFile),
            testsMsPerFile: round(testsMsPerFile),
            transformMs: Math.round(transformMs),
            durationMs: Math.round(durationMs),
          },
        ]
      }),
    ),
  }),
)
if (flags.keep) console.log(`kept: ${temps.join(', ')}`)
cleanUp()
