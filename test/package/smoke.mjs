// Consumer smoke test: the packed tarball installed into fresh projects with a
// plain `npm install` (no flags), the way a consumer does, on today's tools:
//   Node 20 (the machine's), msw 2, vitest 4, TypeScript 5.9, Jest 30
//   Node 24 (from the registry), msw 3, vitest 5, TypeScript 7, Jest 30, vitest browser mode
// One install per Node: the project is the CommonJS one `npm init -y` writes,
// and its subfolders are projects of their own that share its node_modules
// (esm/ says "type": "module"). README's and docs/test-runners.md's example for each runner runs there:
// vitest (ESM and CommonJS), Jest in its CommonJS and ES module modes, with
// jest-fixed-jsdom and in TypeScript (@swc/jest), node --test, and vitest
// browser mode in Chromium; tsc checks the examples with skipLibCheck false.
// Then what a user gets wrong: no preset, plain jsdom, Jest 29, msw 3 on Node 20. Last, the tarball with no msw
// at all: sim.fetch runs, and what needs msw says so in one line.
// Usage: npm run test:package   (needs the npm registry; CHROMIUM_PATH, default /usr/bin/chromium)
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { transformSync } from 'esbuild'
import { envWithNode, ROOT } from './registry-node.mjs'

const JEST = [
  'jest@^30',
  'esbuild@^0.28',
  '@types/jest@^30',
  '@swc/core@^1',
  '@swc/jest@^0.2',
  'jest-fixed-jsdom@^0.0',
  'jest-environment-jsdom@^30',
]
const CONFIGS = [
  {
    label: 'Node 20, msw 2, vitest 4, TypeScript 5.9',
    node: null,
    deps: ['msw@^2.12', 'vitest@^4', 'typescript@~5.9', '@types/node@^20', '@playwright/test@^1.50', ...JEST],
    browser: false,
  },
  {
    label: 'Node 24, msw 3, vitest 5, TypeScript 7',
    node: '24',
    deps: ['msw@^3', 'typescript@^7', '@types/node@^24', '@playwright/test@^1.50', ...JEST, 'playwright@^1.50'],
    // vitest and its browser provider pin each other exactly, and the registry can hold a vitest
    // whose provider is not out yet (npm then stops on the clash): both at the provider's newest.
    pinnedTogether: { lead: '@vitest/browser-playwright', range: '^5', with: ['vitest'] },
    browser: true,
  },
]
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const IN_CI = process.env.CI === 'true' || process.env.CI === '1'
const work = mkdtempSync(join(tmpdir(), 'petstore-smoke-'))
const started = performance.now()
/** Test counts per runner, for the summary at the end. */
const summary = []

const capture = (command, args, options) =>
  execFileSync(command, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', ...options })
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`

/** `lead`'s newest version in `range`, and the packages released with it at that same version. */
function pinnedTogether(pin, sh) {
  if (pin === undefined) return []
  const listed = JSON.parse(sh('npm', ['view', `${pin.lead}@${pin.range}`, 'version', '--json']))
  const numbers = (version) => version.split('.').map(Number)
  const newer = (a, b) => numbers(a).reduce((order, part, i) => order || part - numbers(b)[i], 0)
  const newest = [listed].flat().sort(newer).at(-1)
  return [pin.lead, ...pin.with].map((name) => `${name}@${newest}`)
}

/** Runs `action`, printing its name and how long it took. */
async function step(name, action) {
  const since = performance.now()
  console.log(`-- ${name}`)
  const result = await action()
  console.log(`   (${seconds(since)})`)
  return result
}

/** README's fenced blocks and docs/test-runners.md's, read by the doc test's own reader (TypeScript, compiled here with esbuild). */
async function readmeBlocks() {
  const source = readFileSync(join(ROOT, 'test/support/doc-blocks.ts'), 'utf8')
  const { code } = transformSync(source, { loader: 'ts', format: 'esm' })
  const docBlocks = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)
  return { docBlocks, blocks: ['README.md', 'docs/test-runners.md'].flatMap((page) => docBlocks.readBlocks(ROOT, page)) }
}

console.log('== npm pack ==')
const tarball = join(work, capture('npm', ['pack', '--silent', '--pack-destination', work], { cwd: ROOT }).trim().split('\n').pop())
const listed = JSON.parse(capture('npm', ['pack', '--dry-run', '--json', '--silent'], { cwd: ROOT }))[0].files.map((file) => file.path)
const testFiles = listed.filter((path) => /(^|\/)test\/|\.test\.[cm]?[jt]s$/.test(path))
if (testFiles.length > 0) throw new Error(`The tarball holds test files: ${testFiles.join(', ')}`)
console.log(`${tarball}: ${listed.length} files, none of them tests`)

const { docBlocks, blocks } = await readmeBlocks()
const vitestExample = docBlocks.vitestExample(blocks).code
const jestProjects = docBlocks.jestProjects(blocks)
const nodeTest = blocks.find((block) => block.marker.kind === 'node-test')
const browserFiles = Object.fromEntries(
  blocks
    .filter((block) => block.marker.kind === 'vitest-browser')
    .map((block) => {
      const name = docBlocks.blockFileName(block)
      return [name, name?.includes('.test.') ? docBlocks.withTestsOf(block.code, vitestExample) : block.code]
    }),
)
for (const [what, found] of [
  ['a Jest commonjs project', jestProjects.get('commonjs')],
  ['a Jest typescript project', jestProjects.get('typescript')],
  ['a node-test block', nodeTest],
  ['a vitest-browser vitest.config.ts and orders.test.ts', browserFiles['vitest.config.ts'] && browserFiles['orders.test.ts']],
]) {
  if (found === undefined) throw new Error(`README.md and docs/test-runners.md have no ${what}.`)
}
/** docs/playwright.md's example: the ts blocks that start with `// playwright.config.ts` and `// orders.spec.ts`. */
const playwrightDoc = readFileSync(join(ROOT, 'docs/playwright.md'), 'utf8')
const playwrightFiles = ['playwright.config', 'orders.spec'].map((name) => {
  const block = new RegExp(`\`\`\`ts\n(// ${name.replace('.', '\\.')}\\.ts\n[\\s\\S]*?)\`\`\``).exec(playwrightDoc)?.[1]
  if (block === undefined) throw new Error(`docs/playwright.md has no ts block starting with "// ${name}.ts".`)
  return { name, block }
})

// What a suite that starts the HTTP server writes, against ./server's types.
const serverCheck = `import { createServer } from 'node:http'
import { createSimulatorApp, startSimulatorServer, type MountableApp, type RunningSimulator } from 'petstore-orders-simulator/server'

const { app, sim } = createSimulatorApp({ scenario: 'shipped' })
const mounted: MountableApp = app
createServer(mounted).close()
const running: RunningSimulator = await startSimulatorServer({ port: 0, scenario: 'pending' })
console.log(running.url, sim.orders().length)
await running.close()
`

/** A folder of the project: a package of its own (its package.json `type`) that resolves from the project's node_modules. */
function subproject(project, name, type, files) {
  const folder = join(project, name)
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: `consumer-${name}`, private: true, type }))
  for (const [file, text] of Object.entries(files)) writeFileSync(join(folder, file), text)
  return folder
}

function typecheck(folder, files, module, more = {}) {
  const compilerOptions = {
    strict: true,
    module,
    moduleResolution: module,
    target: 'ES2022',
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
    ...more,
  }
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: files }))
  console.log(`   tsc (${JSON.stringify({ module, ...more })}, skipLibCheck ${compilerOptions.skipLibCheck}): ${files.join(', ')}`)
}

/** Runs a command that reports tests; throws with its output when it fails. */
function runTests(label, folder, command, args, env, count) {
  const result = spawnSync(command, args, { cwd: folder, env, encoding: 'utf8', timeout: 300_000 })
  const output = `${result.stdout}${result.stderr}`
  if (result.status !== 0) throw new Error(`${label} failed (exit ${result.status ?? result.signal}):\n${output}`)
  const passed = count(output, folder)
  summary.push([label, passed])
  console.log(`   ${label}: ${passed} passed`)
}

/** Jest's own count, from its JSON report; every test must have passed. */
function jestCount(_output, folder) {
  const report = JSON.parse(readFileSync(join(folder, 'jest-report.json'), 'utf8'))
  if (report.numFailedTests !== 0 || report.numPassedTests === 0) throw new Error(`Jest in ${folder}: ${JSON.stringify(report)}`)
  return report.numPassedTests
}
const vitestCount = (output) => Number(/Tests\s+(\d+) passed/.exec(stripVTControlCharacters(output))?.[1] ?? 0)
const nodeTestCount = (output) => Number(/\bpass (\d+)/.exec(output)?.[1] ?? 0)
const JEST_ARGS = ['jest', '--ci', '--json', '--outputFile=jest-report.json']

/** Runs Jest where it must fail; returns what it printed. */
function jestFailure(folder, env, args = []) {
  const result = spawnSync('npx', ['jest', '--ci', ...args], { cwd: folder, env, encoding: 'utf8', timeout: 300_000 })
  const output = `${result.stdout}${result.stderr}`
  if (result.status === 0) throw new Error(`Jest passed in ${folder}, where it must fail:\n${output}`)
  return output
}
/** Checks that `output` holds `line`, and not what Jest would have said without it. */
function expectLine(label, output, line, instead) {
  if (!output.includes(line) || (instead !== undefined && output.includes(instead)))
    throw new Error(`${label}: expected the line\n  ${line}\ngot:\n${output}`)
  console.log(`   ${label}: ${line}`)
}

for (const config of CONFIGS) {
  const env = envWithNode(config.node)
  console.log(`\n== ${config.label} ==`)
  const project = join(work, config.node ?? 'machine')
  mkdirSync(project)
  const sh = (command, args, options = {}) => capture(command, args, { cwd: project, env, ...options })
  sh('npm', ['init', '-y', '--silent'])
  console.log(sh('node', ['--version']).trim())
  const deps = [...config.deps, ...pinnedTogether(config.pinnedTogether, sh)]
  await step(`npm install the tarball, ${deps.join(' ')}`, () =>
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...deps]),
  )
  const mswCopies = sh('npm', ['ls', 'msw', '--all', '--parseable']).trim().split('\n').filter(Boolean)
  if (mswCopies.length !== 1) throw new Error(`Expected one msw, found: ${mswCopies.join(', ')}`)
  const installed = Object.fromEntries(
    ['msw', 'vitest', 'typescript', 'jest'].map((name) => [
      name,
      JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')).version,
    ]),
  )
  console.log(`one msw (${mswCopies[0]}); ${JSON.stringify(installed)}`)
  const typesOfExpress = sh('npm', ['ls', '@types/express', '--parseable']).trim()
  if (typesOfExpress !== '') throw new Error(`@types/express is installed (${typesOfExpress}): the ./server check would prove nothing`)

  for (const kind of ['esm', 'cjs']) {
    await step(
      `vitest, README's example, ${kind === 'esm' ? 'in a "type": "module" package' : 'in the CommonJS package npm init -y writes'}`,
      () => {
        const ext = kind === 'esm' ? 'ts' : 'mts'
        const files = { [`orders.test.${ext}`]: vitestExample, [`server-types.${ext}`]: serverCheck }
        for (const { name, block } of playwrightFiles) files[`${name}.${ext}`] = block
        const folder = subproject(project, `vitest-${kind}`, kind === 'esm' ? 'module' : 'commonjs', files)
        const module = kind === 'esm' ? 'NodeNext' : 'node16'
        typecheck(folder, Object.keys(files), module)
        sh('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: folder })
        runTests(
          `vitest ${installed.vitest}, ${kind}, ${config.label}`,
          folder,
          'npx',
          ['vitest', 'run', `orders.test.${ext}`],
          env,
          vitestCount,
        )
      },
    )
  }

  const commonjs = jestProjects.get('commonjs').files
  await step('Jest, the CommonJS project of docs/test-runners.md (npx jest)', () => {
    const folder = subproject(project, 'jest-cjs', 'commonjs', commonjs)
    runTests(`Jest ${installed.jest} CommonJS, ${config.label}`, folder, 'npx', JEST_ARGS, env, jestCount)
    expectLine(
      'the same project without the preset',
      jestFailure(folder, env, ['--config', '{}']),
      "Add preset: 'petstore-orders-simulator' to your Jest config",
      'Must use import to load ES Module',
    )
  })
  await step('Jest, that project made ES modules as docs/test-runners.md says (NODE_OPTIONS=--experimental-vm-modules npx jest)', () => {
    const folder = subproject(project, 'jest-esm', 'module', docBlocks.asEsModules(commonjs))
    const esmEnv = { ...env, NODE_OPTIONS: '--experimental-vm-modules --no-warnings' }
    runTests(`Jest ${installed.jest} ES modules, ${config.label}`, folder, 'npx', JEST_ARGS, esmEnv, jestCount)
  })
  await step('Jest with jest-fixed-jsdom (that project, testEnvironment added to the preset line)', () => {
    const jsdomConfig = "module.exports = { preset: 'petstore-orders-simulator', testEnvironment: 'jest-fixed-jsdom' }\n"
    if (!commonjs['jest.config.js'].includes("module.exports = { preset: 'petstore-orders-simulator' }"))
      throw new Error("docs/test-runners.md's jest.config.js is no longer the one line this step adds testEnvironment to.")
    const folder = subproject(project, 'jest-jsdom', 'commonjs', { ...commonjs, 'jest.config.js': jsdomConfig })
    runTests(`Jest ${installed.jest} jest-fixed-jsdom, ${config.label}`, folder, 'npx', JEST_ARGS, env, jestCount)
    expectLine(
      'the same with plain jest-environment-jsdom',
      jestFailure(folder, env, ['--testEnvironment', 'jsdom']),
      "this test environment lacks the Fetch API and web globals msw needs (Request is not defined); jest-environment-jsdom takes them away. Use testEnvironment: 'jest-fixed-jsdom'",
    )
  })
  await step(
    'Jest in TypeScript, the TypeScript project of docs/test-runners.md (@swc/jest), type-checked for @jest/globals and for @types/jest globals',
    () => {
      const globalsTest = `import { setupSimulatorServer } from 'petstore-orders-simulator/node'
import 'petstore-orders-simulator/jest'

const { sim } = setupSimulatorServer({ scenario: 'pending' })
test('the matcher is typed on the globals of @types/jest', () => {
  expect(sim).not.toHaveReceived({ operation: 'listOrders' }, { times: 1 })
  // @ts-expect-error: times is a number
  expect(() => expect(sim).toHaveReceived({}, { times: 'twice' })).toThrow()
})
`
      const files = { ...jestProjects.get('typescript').files, 'globals.test.ts': globalsTest }
      const folder = subproject(project, 'jest-typescript', 'commonjs', files)
      typecheck(folder, ['orders.test.ts'], 'nodenext')
      sh('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: folder })
      writeFileSync(
        join(folder, 'tsconfig.globals.json'),
        readFileSync(join(folder, 'tsconfig.json'), 'utf8')
          .replace('["node"]', '["node","jest"]')
          .replace('["orders.test.ts"]', '["globals.test.ts"]'),
      )
      console.log('   tsc (nodenext, skipLibCheck false, types node and jest): globals.test.ts')
      sh('npx', ['tsc', '-p', 'tsconfig.globals.json'], { cwd: folder })
      runTests(`Jest ${installed.jest} TypeScript (@swc/jest), ${config.label}`, folder, 'npx', JEST_ARGS, env, jestCount)
    },
  )
  await step("node --test, docs/test-runners.md's example", () => {
    const name = docBlocks.blockFileName(nodeTest)
    const folder = subproject(project, 'node-test', 'commonjs', { [name]: nodeTest.code })
    runTests(
      `node --test (Node ${sh('node', ['--version']).trim()}), ${config.label}`,
      folder,
      'node',
      ['--test', name],
      env,
      nodeTestCount,
    )
  })
  if (config.browser) {
    await step("vitest browser mode in Chromium, docs/test-runners.md's config and tests", () => {
      if (!existsSync(CHROMIUM)) {
        const reason = `no browser at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`
        if (IN_CI) throw new Error(`CI is set but there is ${reason}.`)
        console.warn(`   Skipped: ${reason}. In CI it never skips.`)
        summary.push([`vitest ${installed.vitest} browser mode, ${config.label}`, 'skipped: no browser'])
        return
      }
      const folder = subproject(project, 'vitest-browser', 'module', browserFiles)
      // As a Vite project's tsconfig says. skipLibCheck: the Jest install of this project brings @types/jsdom,
      // whose declarations clash with TypeScript 7's DOM library; a browser-mode project holds neither Jest nor jsdom.
      typecheck(folder, ['vitest.config.ts', 'orders.test.ts'], 'ESNext', {
        moduleResolution: 'Bundler',
        lib: ['ES2022', 'DOM'],
        skipLibCheck: true,
      })
      sh('npx', ['tsc', '-p', 'tsconfig.json'], { cwd: folder })
      const browserEnv = { ...env, CHROMIUM_PATH: CHROMIUM }
      runTests(
        `vitest ${installed.vitest} browser mode (Chromium), ${config.label}`,
        folder,
        'npx',
        ['vitest', 'run'],
        browserEnv,
        vitestCount,
      )
    })
  }

  await step('npx petstore-sim --port 0', () => {
    const child = spawn('npx', ['petstore-sim', '--port', '0', '--quiet'], {
      cwd: project,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    return new Promise((resolve, reject) => {
      let out = ''
      const timer = setTimeout(() => reject(new Error(`no ready line in 20 s: ${out}`)), 20_000)
      child.stdout.on('data', (chunk) => {
        out += chunk
        const line = /Petstore simulator ready at .*/.exec(out)
        if (line) {
          clearTimeout(timer)
          process.kill(-child.pid, 'SIGTERM')
          console.log(`   ${line[0]}`)
          resolve()
        }
      })
    })
  })
}

console.log('\n== What a Jest user can get wrong: Jest 29, then msw 3 on Node 20 ==')
{
  const project = join(work, 'unsupported')
  mkdirSync(project)
  const sh = (command, args) => capture(command, args, { cwd: project })
  sh('npm', ['init', '-y', '--silent'])
  writeFileSync(join(project, 'jest.config.js'), jestProjects.get('commonjs').files['jest.config.js'])
  writeFileSync(join(project, 'orders.test.js'), jestProjects.get('commonjs').files['orders.test.js'])
  await step('npm install jest@29 msw@^2.12 and the tarball', () =>
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball, 'jest@29', 'msw@^2.12']),
  )
  expectLine(
    'Jest 29',
    jestFailure(project, process.env),
    'petstore-orders-simulator: the Jest preset needs Jest 30 or newer, and this is Jest 29.',
  )
  await step('npm install jest@30 msw@^3 (on Node 20)', () =>
    sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', 'jest@30', 'msw@^3']),
  )
  expectLine('msw 3 on Node 20', jestFailure(project, process.env), 'needs Node.js 22.12 or newer, and this is Node.js 20.')
}

console.log('\n== No msw: the tarball alone (msw is an optional peer) ==')
{
  const project = join(work, 'no-msw')
  mkdirSync(project)
  const sh = (command, args) => capture(command, args, { cwd: project })
  sh('npm', ['init', '-y', '--silent'])
  await step('npm install the tarball, nothing else', () => sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball]))
  if (existsSync(join(project, 'node_modules/msw'))) throw new Error('msw was installed with the package: it must be an optional peer')
  const script = `const { createSimulator } = require('petstore-orders-simulator')
const failure = (attempt) => {
  try { attempt(); return 'no error' } catch (error) { return error.message.split('\\n')[0] }
}
import('petstore-orders-simulator').then(async (esm) => {
  const sim = esm.createSimulator({ scenario: 'pending' })
  const auth = { Authorization: 'Bearer petstore-test-key' }
  const cancelled = await sim.fetch('https://api.petstore.example/v1/store/orders/1', { method: 'DELETE', headers: auth })
  const listed = await (await createSimulator().fetch('https://api.petstore.example/v1/store/orders', { headers: auth })).json()
  const imported = await import('petstore-orders-simulator/node').then(() => 'no error', (error) => error.message)
  const failures = [failure(() => sim.handlers), failure(() => require('petstore-orders-simulator/node')), imported]
  console.log(JSON.stringify({ cancelled: cancelled.status, listed: listed.length, failures }))
})
`
  writeFileSync(join(project, 'no-msw.cjs'), script)
  const result = JSON.parse(sh('node', ['no-msw.cjs']).trim().split('\n').pop())
  const install = 'npm install --save-dev msw (msw 2.12+, or msw 3 on Node.js 22.12+). sim.fetch needs none.'
  const [handlers, required, imported] = result.failures
  const checks = [
    [result.cancelled === 204 && result.listed >= 12, 'sim.fetch: a cancel and the default list'],
    [handlers === `petstore-orders-simulator: sim.handlers needs msw, which is not installed: ${install}`, handlers],
    [
      required ===
        `petstore-orders-simulator: petstore-orders-simulator/node (setupSimulatorServer) needs msw, which is not installed: ${install}`,
      required,
    ],
    [/^Cannot find package 'msw' imported from /.test(imported), imported],
  ]
  for (const [ok, what] of checks) {
    if (!ok) throw new Error(`Without msw: ${what} (${JSON.stringify(result)})`)
    console.log(`   ${what}`)
  }
  // MCP from the package alone: the SDK is not installed, its bundles are (the library's and the command's).
  const mcpScript = `import { spawn } from 'node:child_process'
import { startSimulatorServer } from 'petstore-orders-simulator/server'
const running = await startSimulatorServer({ port: 0, scenario: 'shipped' })
const origin = 'http://127.0.0.1:' + running.port
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'listAdminOrders', arguments: {} } }
const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }
const http = await (await fetch(origin + '/__sim/mcp', { method: 'POST', headers, body: JSON.stringify(call) })).json()
const child = spawn('npx', ['petstore-sim', 'mcp', '--url', origin], { stdio: ['pipe', 'pipe', 'ignore'] })
let out = ''
child.stdout.on('data', (chunk) => (out += chunk))
child.stdin.end(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'petstore-sim://docs/spec.md' } }) + '\\n')
await new Promise((resolve) => child.on('close', resolve))
await running.close()
const spec = JSON.parse(out.trim()).result.contents[0].text.split('\\n')[0]
console.log(JSON.stringify({ orders: JSON.parse(http.result.content[0].text).length, spec }))
`
  writeFileSync(join(project, 'mcp.mjs'), mcpScript)
  const mcp = await step('MCP: POST /__sim/mcp and petstore-sim mcp, without the SDK installed', () =>
    JSON.parse(sh('node', ['mcp.mjs']).trim().split('\n').pop()),
  )
  if (existsSync(join(project, 'node_modules/@modelcontextprotocol'))) throw new Error('The MCP SDK was installed with the package')
  if (mcp.orders !== 3 || mcp.spec !== '# Petstore Orders Service Specification') throw new Error(`MCP: ${JSON.stringify(mcp)}`)
  console.log(`   MCP over HTTP listed ${mcp.orders} orders; over stdio read "${mcp.spec}"`)
}

console.log('\n== Tests passed, by runner ==')
for (const [label, passed] of summary) console.log(`${String(passed).padStart(3)}  ${label}`)
console.log(`\nConsumer smoke test passed in ${seconds(started)} (${work}).`)
