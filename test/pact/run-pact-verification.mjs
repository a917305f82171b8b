// The pact README's vitest example writes, verified by Pact's own Verifier:
//   1. install @pact-foundation/pact in test/pact (npm ci, scripts off, no analytics), on Node 24;
//   2. run README's vitest example (with writePact in its afterAll) in a project linked to this
//      repository's build: it writes pacts/orders-web-petstore-orders-service.json;
//   3. verify that pact against a fresh `petstore-sim` server, state changes through
//      POST /__sim/provider-states: it must pass;
//   4. verify it against a provider that differs where the spec is silent: it must fail,
//      naming the interaction that differs.
// Each step prints its duration. Needs `npm run build` first (the consumer imports dist/).
// Usage: node test/pact/run-pact-verification.mjs
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { stripVTControlCharacters } from 'node:util'
import { envWithNode, ROOT } from '../package/registry-node.mjs'

const HERE = fileURLToPath(new URL('.', import.meta.url))
const WORK = join(ROOT, '.pact-run')
const CONSUMER = 'orders-web'
const PACT_FILE = join(WORK, 'consumer', 'pacts', `${CONSUMER}-petstore-orders-service.json`)
/** The provider `petstore-sim verify` is tested against: it differs where the spec is silent, and serves the provider states. */
const DIFFERING_PROVIDER = process.env.PACT_DIFFERING_PROVIDER ?? join(ROOT, 'test/fixtures/differing-provider.mjs')
/** The interaction of README's example that provider answers otherwise: 422 invalid_id for a bad id. */
const DIFFERING_INTERACTION = 'DELETE /store/orders/abc: 400 invalid_order_id'
/** Pact's packages report usage on install and at run time unless told not to. */
const NO_TRACKING = { SCARF_ANALYTICS: 'false', PACT_DO_NOT_TRACK: 'true' }
/** The line README's example needs so that its pact is written (proposed for README itself; added here until then). */
const PACT_LINE = `afterAll(() => writePact(sim.pact({ consumer: '${CONSUMER}' }))) // pacts/${CONSUMER}-petstore-orders-service.json`

const require = createRequire(import.meta.url)
const packageDir = (name) => dirname(require.resolve(`${name}/package.json`))

async function step(name, run) {
  const started = performance.now()
  process.stdout.write(`\n== ${name}\n`)
  const result = await run()
  console.log(`== ${name}: done in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  return result
}

/** The same, without blocking: a provider started in this process must go on answering meanwhile. */
function runAsync(command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.once('close', (status) => resolve({ status, output: stripVTControlCharacters(output) }))
  })
}

function run(command, args, options) {
  const result = spawnSync(command, args, { encoding: 'utf8', ...options })
  const output = stripVTControlCharacters(`${result.stdout ?? ''}${result.stderr ?? ''}`)
  return { status: result.status, output }
}

/** README's vitest example, with writePact in its afterAll (README's own, once README carries it). */
function readmeExample() {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const block = /```ts\n(\/\/ orders\.test\.ts[^\n]*\n[\s\S]*?)```/.exec(readme)?.[1]
  if (block === undefined) throw new Error('README.md has no ```ts block starting with "// orders.test.ts".')
  if (block.includes('writePact(')) return block
  const imported = "import { setupSimulatorServer } from 'petstore-orders-simulator/node'"
  const closing = 'afterAll(() => server.close())'
  if (!block.includes(imported) || !block.includes(closing))
    throw new Error(`README's vitest example changed: it no longer has "${imported}" and "${closing}" to add writePact beside.`)
  return block
    .replace(imported, "import { setupSimulatorServer, writePact } from 'petstore-orders-simulator/node'")
    .replace(closing, `${closing}\n${PACT_LINE}`)
}

/** A consumer project like README's, the package linked to this repository as `npm link` would. */
function consumerProject(example) {
  const folder = join(WORK, 'consumer')
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(join(folder, 'node_modules'), { recursive: true })
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'orders-web', private: true, type: 'module' }))
  symlinkSync(ROOT, join(folder, 'node_modules/petstore-orders-simulator'))
  symlinkSync(packageDir('msw'), join(folder, 'node_modules/msw'))
  writeFileSync(join(folder, 'orders.test.ts'), example)
  writeFileSync(join(folder, 'vitest.config.mjs'), "export default { test: { include: ['*.test.ts'] } }\n")
  return folder
}

/** Starts a provider process and resolves with its base URL (the first http URL it prints) and a stop function. */
function startProvider(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let seen = ''
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} printed no URL within 20 s:\n${seen}`)), 20_000)
    const stop = () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done()
        child.once('exit', done)
        child.kill('SIGTERM')
      })
    const read = (chunk) => {
      seen += chunk
      const url = /http:\/\/127\.0\.0\.1:\d+\/v1/.exec(seen)?.[0]
      if (url !== undefined) {
        clearTimeout(timer)
        resolve({ url, stop })
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code} before printing its URL:\n${seen}`)))
  })
}

/**
 * A provider from a script that prints its URL, or from a module exporting
 * startDifferingProvider({ key }) (the shape of test/fixtures/differing-provider.mjs).
 */
async function startAny(args) {
  const [file] = args
  if (file?.endsWith('.mjs') && readFileSync(file, 'utf8').includes('export async function startDifferingProvider')) {
    const { startDifferingProvider } = await import(file)
    const provider = await startDifferingProvider({ key: 'petstore-test-key' })
    return { url: provider.url, stop: () => provider.close() }
  }
  return startProvider(args)
}

async function verify(label, providerArgs, pactFile = PACT_FILE) {
  const provider = await startAny(providerArgs)
  try {
    console.log(`${label} at ${provider.url}`)
    return await runAsync('node', ['verify-pact.mjs', pactFile, provider.url], { cwd: HERE, env: { ...envWithNode('24'), ...NO_TRACKING } })
  } finally {
    await provider.stop()
  }
}

/** The verifier names an interaction whose answer differed; one whose state could not be set up fails apart. */
const answerFailed = (output, description) =>
  output.includes(`- ${description}\n`) && !output.includes(`- ${description} - One or more of the setup state change handlers has failed`)

const failures = []
const check = (ok, message) => {
  console.log(`${ok ? 'ok' : 'FAILED'}: ${message}`)
  if (!ok) failures.push(message)
}

if (!existsSync(join(ROOT, 'dist/src/node.js')) || !readFileSync(join(ROOT, 'dist/src/node.js'), 'utf8').includes('writePact'))
  throw new Error('dist/ has no writePact: run `npm run build` first.')

await step('install @pact-foundation/pact in test/pact (npm ci --ignore-scripts, Node 24)', () => {
  const installed = run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: HERE,
    env: { ...envWithNode('24'), ...NO_TRACKING },
  })
  if (installed.status !== 0) throw new Error(`npm ci failed:\n${installed.output}`)
  const version = run('node', ['--version'], { env: envWithNode('24') }).output.trim()
  console.log(
    `Node ${version}; @pact-foundation/pact ${JSON.parse(readFileSync(join(HERE, 'node_modules/@pact-foundation/pact/package.json'), 'utf8')).version}`,
  )
})

await step("README's vitest example writes the pact", () => {
  const folder = consumerProject(readmeExample())
  const tests = run(process.execPath, [join(packageDir('vitest'), 'vitest.mjs'), 'run'], { cwd: folder })
  check(tests.status === 0, `README's vitest example passes (exit ${tests.status})`)
  if (tests.status !== 0) console.log(tests.output)
  check(existsSync(PACT_FILE), `it wrote ${relative(ROOT, PACT_FILE)}`)
  const pact = JSON.parse(readFileSync(PACT_FILE, 'utf8'))
  console.log(`interactions: ${pact.interactions.map((interaction) => `\n  - ${interaction.description}`).join('')}`)
})

await step('verify it against a fresh petstore-sim server (must pass)', async () => {
  const { status, output } = await verify('petstore-sim', ['dist/cli.mjs', '--port', '0', '--quiet'])
  console.log(output.trim())
  check(status === 0 && output.includes('PACT VERIFICATION: PASSED'), 'the pact verifies against petstore-sim')
})

await step(`verify it against ${relative(ROOT, DIFFERING_PROVIDER)} (must fail, naming the interaction)`, async () => {
  const { status, output } = await verify('the differing provider', [DIFFERING_PROVIDER])
  console.log(output.trim())
  check(status !== 0, 'the verification fails')
  check(output.includes(DIFFERING_INTERACTION), `the failure names "${DIFFERING_INTERACTION}"`)
  check(answerFailed(output, DIFFERING_INTERACTION), 'it fails on the answer, not on setting the provider state up')
})

await step('a fuller pact over HTTP (list, 404, 401 without and with a key, 400), verified the same way', async () => {
  const server = await startProvider(['dist/cli.mjs', '--port', '0', '--quiet'])
  const file = join(WORK, 'fuller-web-petstore-orders-service.json')
  try {
    const session = { 'X-Sim-Session': 'fuller' }
    const key = { Authorization: 'Bearer petstore-test-key', ...session }
    await fetch(`${server.url}/store/orders`, { headers: key })
    await fetch(`${server.url}/store/orders/9`, { method: 'DELETE', headers: key })
    await fetch(`${server.url}/store/orders/abc`, { method: 'DELETE', headers: key })
    await fetch(`${server.url}/store/orders`, { headers: { Authorization: 'Bearer wrong-key', ...session } })
    await fetch(`${server.url}/store/orders/1`, { method: 'DELETE', headers: session })
    const origin = new URL(server.url).origin
    const pact = await fetch(`${origin}/__sim/pact?consumer=fuller-web`, { headers: session })
    writeFileSync(file, await pact.text())
  } finally {
    await server.stop()
  }
  const green = await verify('petstore-sim', ['dist/cli.mjs', '--port', '0', '--quiet'], file)
  console.log(green.output.trim())
  check(green.status === 0, 'the fuller pact verifies against petstore-sim (its matching rules are read by Pact as meant)')
  const red = await verify('the differing provider', [DIFFERING_PROVIDER], file)
  console.log(red.output.trim())
  for (const named of [
    'DELETE /store/orders/abc: 400 invalid_order_id',
    'GET /store/orders given the key is not accepted: 401 unauthorized',
  ])
    check(red.status !== 0 && answerFailed(red.output, named), `against the differing provider the answer of "${named}" fails`)
})

if (failures.length > 0) {
  console.error(`\n${failures.length} check(s) failed:\n${failures.map((failure) => `  - ${failure}`).join('\n')}`)
  process.exit(1)
}
console.log(
  "\nThe pact of README's example verifies against the simulator and fails, naming the interaction, against a provider that differs.",
)
