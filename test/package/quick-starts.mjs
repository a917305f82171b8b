// npm run test:quick-starts: README's quick starts followed literally, as a newcomer does (issue 43): in an
// empty folder outside the repository, the install line as README gives it (the packed tarball in place of
// the package's name, which is not on the registry yet), the snippet saved under the name it gives, the run
// command it gives. On the machine's Node (20) and on the newest Node from the registry. Needs `npm run build`.
// The browser quick start runs in a Vite app made here (README's reader has one) and in Chromium; it skips
// without Chromium outside CI. The container quick start is followed by test/container.test.ts, which has podman.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { envWithNode, ROOT } from './registry-node.mjs'

const NEWEST = process.env.QUICK_START_NODE ?? '26'
/** QUICK_START_ONLY=browser follows only the quick starts whose name holds it (while changing one). */
const ONLY = process.env.QUICK_START_ONLY
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
const started = performance.now()
const made = []

/** The fenced block of README whose first line is `// <name>`, and the prose just above it. */
function block(name) {
  const match = new RegExp(`([^]{0,900})\`\`\`\\w+\\n(// ${name.replaceAll('.', '\\.')}[^\\n]*\\n[^]*?)\`\`\``).exec(readme)
  if (match === null) throw new Error(`README.md has no block starting with "// ${name}".`)
  return { before: match[1], code: match[2] }
}

/** The install line and run command README gives in the prose above a snippet, in backticks. */
function commandsAbove(before) {
  const install = [...before.matchAll(/`(npm install --save-dev [^`]+)`/g)].at(-1)?.[1]
  const runCommand = [...before.matchAll(/`((?:npx|node) [^`]+)`/g)].at(-1)?.[1]
  if (install === undefined) throw new Error(`README gives no install line above this snippet:\n${before}`)
  return { install, runCommand }
}

function sh(command, cwd, env, timeout = 600_000) {
  console.log(`$ ${command}`)
  // NO_COLOR: vitest colours even a pipe's output otherwise.
  const result = spawnSync('bash', ['-c', command], { cwd, env: { ...env, NO_COLOR: '1' }, encoding: 'utf8', timeout })
  if (result.status !== 0) throw new Error(`${command} exited with ${result.status ?? result.signal}:\n${result.stdout}\n${result.stderr}`)
  return `${result.stdout}${result.stderr}`
}

function emptyFolder(label) {
  const folder = mkdtempSync(join(tmpdir(), `petstore-quick-start-${label}-`))
  made.push(folder)
  return folder
}

/** `npm install` as README writes it, the package from the tarball. */
const installWith = (line, tarball) =>
  `${line.replace(/(^| )petstore-orders-simulator( |$)/, `$1${tarball}$2`)} --no-audit --no-fund --loglevel=error`

function consumerSuite(tarball, env) {
  const { before, code } = block('orders.test.ts')
  const { install, runCommand } = commandsAbove(before)
  const folder = emptyFolder('vitest')
  // As README's first line says: in the CommonJS package `npm init -y` makes, the file is orders.test.mts.
  sh('npm init -y > /dev/null', folder, env)
  sh(installWith(install, tarball), folder, env)
  writeFileSync(join(folder, 'orders.test.mts'), code)
  const output = sh(runCommand ?? 'npx vitest run', folder, env)
  if (!/Tests\s+3 passed/.test(output)) throw new Error(`README's vitest file did not pass its 3 tests:\n${output}`)
  if (!existsSync(join(folder, 'pacts/orders-web-petstore-orders-service.json')))
    throw new Error('writePact wrote no pact where README says.')
}

function clientSuite(tarball, env) {
  const { before, code } = block('orders.client.test.mjs')
  const { install, runCommand } = commandsAbove(before)
  const folder = emptyFolder('client')
  sh(installWith(install, tarball), folder, env)
  writeFileSync(join(folder, 'orders.client.test.mjs'), code)
  const output = sh(runCommand ?? '', folder, env)
  if (!/^(#|ℹ) pass 2$/m.test(output) || !/^(#|ℹ) fail 0$/m.test(output))
    throw new Error(`README's sim.fetch file did not pass its 2 tests:\n${output}`)
}

/** README's standalone server, run where the package is installed (`npx petstore-sim`), asked as README asks it. */
async function server(tarball, env) {
  const folder = emptyFolder('server')
  sh(installWith('npm install --save-dev petstore-orders-simulator', tarball), folder, env)
  const child = spawn('npx', ['petstore-sim', '--port', '0'], { cwd: folder, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  try {
    const base = await readyLine(child, /Petstore simulator ready at (\S+) \(scenario: default, key: petstore-test-key/, 'npx petstore-sim')
    const headers = { Authorization: 'Bearer petstore-test-key' }
    const list = await fetch(`${base}/store/orders`, { headers })
    const cancel = await fetch(`${base}/store/orders/1`, { method: 'DELETE', headers })
    const shipped = await fetch(`${base}/store/orders/5`, { method: 'DELETE', headers })
    const body = await shipped.json()
    if (list.status !== 200 || cancel.status !== 204 || shipped.status !== 409 || body.code !== 'order_already_shipped')
      throw new Error(`README's curl steps answered ${list.status}, ${cancel.status}, ${shipped.status} ${JSON.stringify(body)}`)
  } finally {
    process.kill(-child.pid, 'SIGTERM')
  }
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const IN_CI = process.env.CI === 'true' || process.env.CI === '1'

/** The smallest Vite app that calls the API, wired as README's Vite row says. */
const APP = {
  'index.html': '<!doctype html>\n<html><body><p id="orders">loading</p><script type="module" src="/main.ts"></script></body></html>\n',
  'main.ts': `import { enableMocking } from './mocks'

async function renderApp(): Promise<void> {
  const response = await fetch('https://api.petstore.example/v1/store/orders', { headers: { Authorization: 'Bearer petstore-test-key' } })
  const orders: { id: number; status: string }[] = await response.json()
  document.querySelector('#orders')!.textContent = \`\${response.status}: \${orders.map((order) => \`\${order.id} \${order.status}\`).join(', ')}\`
}

enableMocking(import.meta.env.DEV).then(renderApp)
`,
}

/** README's browser quick start in a Vite app: install line, `npx msw init`, mocks.ts, the Vite call; Chromium loads it. */
async function browserApp(tarball, env) {
  if (!existsSync(CHROMIUM)) {
    if (IN_CI) throw new Error(`CI is set but there is no Chromium at ${CHROMIUM}.`)
    console.warn(`Skipping the browser quick start: no browser at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH).`)
    return
  }
  const { before, code } = block('mocks.ts')
  const { install } = commandsAbove(before)
  const init = /```sh\n(npx msw init [^\n]+)\n```/.exec(before)?.[1]
  if (init === undefined) throw new Error(`README gives no \`npx msw init\` line above mocks.ts:\n${before}`)
  const folder = emptyFolder('browser')
  sh('npm init -y > /dev/null && npm install --save-dev vite --no-audit --no-fund --loglevel=error', folder, env)
  sh(installWith(install, tarball), folder, env)
  sh(init, folder, env)
  writeFileSync(join(folder, 'mocks.ts'), code)
  for (const [file, text] of Object.entries(APP)) writeFileSync(join(folder, file), text)
  const port = await freePort()
  const child = spawn('npx', ['vite', '--host', '127.0.0.1', '--port', String(port), '--strictPort'], {
    cwd: folder,
    env: { ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  const { chromium } = createRequire(join(ROOT, 'package.json'))('playwright-core')
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] })
  try {
    const origin = await readyLine(child, /Local:\s+(http:\/\/127\.0\.0\.1:\d+)/, 'npx vite')
    const page = await browser.newPage()
    const fromWorker = []
    page.on('response', (response) => {
      if (response.url().includes('/v1/store/orders')) fromWorker.push(response.fromServiceWorker())
    })
    await page.goto(origin)
    await page.waitForFunction(() => document.querySelector('#orders')?.textContent !== 'loading', undefined, { timeout: 30_000 })
    const text = await page.textContent('#orders')
    if (!/^200: 1 pending/.test(text ?? '') || !fromWorker.includes(true))
      throw new Error(`The page's list was not answered by the worker: "${text}", from the worker: ${JSON.stringify(fromWorker)}`)
    // README: petstoreSim.reset('shipped') from the console.
    const reset = await page.evaluate(async () => {
      await window.petstoreSim.reset('shipped')
      return window.petstoreSim.orders().find((order) => order.id === 1)?.status
    })
    if (reset !== 'shipped') throw new Error(`petstoreSim.reset('shipped') left order 1 ${reset}.`)
  } finally {
    await browser.close()
    process.kill(-child.pid, 'SIGTERM')
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

/** Resolves with the first group of `pattern` in a child's output; rejects if it exits first or after 60 s. */
function readyLine(child, pattern, what) {
  return new Promise((resolve, reject) => {
    let text = ''
    const timer = setTimeout(() => reject(new Error(`no ready line from ${what} in 60 s:\n${text}`)), 60_000)
    const read = (chunk) => {
      text += chunk
      const ready = pattern.exec(text)
      if (ready !== null) {
        clearTimeout(timer)
        resolve(ready[1])
      }
    }
    child.stdout.on('data', read)
    child.stderr.on('data', read)
    child.on('exit', (code) => reject(new Error(`${what} exited with ${code}:\n${text}`)))
  })
}

const QUICK_STARTS = [
  ['the standalone server (npx petstore-sim)', server],
  ['a consumer test suite with vitest', consumerSuite],
  ['sim.fetch with node --test', clientSuite],
  ['in your app (browser), a Vite app in Chromium', browserApp],
]

try {
  if (!existsSync(join(ROOT, 'dist/src/index.js'))) throw new Error('dist/ is missing: run `npm run build` first.')
  const packed = emptyFolder('pack')
  const name = sh(`npm pack --ignore-scripts --silent --pack-destination ${packed} ${ROOT}`, ROOT, process.env).trim().split('\n').at(-1)
  const tarball = join(packed, name)
  for (const [label, env] of [
    [`Node ${process.versions.node} (this machine's)`, process.env],
    [`Node ${NEWEST} (the newest, from the registry)`, envWithNode(NEWEST)],
  ]) {
    for (const [what, follow] of QUICK_STARTS.filter(([what]) => ONLY === undefined || what.includes(ONLY))) {
      console.log(`\n== ${what}, ${label} ==`)
      await follow(tarball, env)
    }
  }
  console.log(`\nEvery quick start ran as written, in ${((performance.now() - started) / 1000).toFixed(0)} s.`)
} finally {
  for (const folder of made) rmSync(folder, { recursive: true, force: true })
}
