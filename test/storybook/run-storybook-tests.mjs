// Runs examples/storybook's stories as tests (Storybook 10, @storybook/addon-vitest, Chromium),
// twice in one run: in the stories' own order, then reversed. A story that passes only after
// (or before) another would fail one of the two, so both passing shows no state leaks between them.
import { spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer } from 'node:net'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const EXAMPLE = join(ROOT, 'examples/storybook')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const STAMP = join(EXAMPLE, 'node_modules/.petstore-lock-sha256')

function seconds(since) {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`
}

function stop(message) {
  console.error(`run-storybook-tests: ${message}`)
  process.exit(1)
}

if (!existsSync(CHROMIUM)) {
  const reason = `no Chromium at ${CHROMIUM} (install Debian's chromium, or set CHROMIUM_PATH)`
  if (process.env.CI === 'true') stop(`${reason}; CI must run the Storybook tests.`)
  console.log(`run-storybook-tests: skipped: ${reason}.`)
  process.exit(0)
}
if (!existsSync(join(ROOT, 'dist/src/storybook.js')))
  stop('the package is not built (dist/src/storybook.js is missing): run `npm run build` first.')

// Install once; again only when the lockfile changed since the last install.
const lockHash = createHash('sha256')
  .update(readFileSync(join(EXAMPLE, 'package-lock.json')))
  .digest('hex')
if (existsSync(STAMP) && readFileSync(STAMP, 'utf8') === lockHash) {
  console.log('run-storybook-tests: examples/storybook/node_modules matches package-lock.json; install skipped.')
} else {
  const started = performance.now()
  const install = spawnSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: EXAMPLE,
    stdio: 'inherit',
  })
  if (install.status !== 0) stop(`npm ci in examples/storybook exited with ${install.status ?? install.signal}.`)
  writeFileSync(STAMP, lockHash)
  console.log(`run-storybook-tests: npm ci in examples/storybook: ${seconds(started)}`)
}

{
  // The stories and configs type-check against the built package's types, as a project's would.
  const started = performance.now()
  const typecheck = spawnSync(process.execPath, [join(EXAMPLE, 'node_modules/typescript/bin/tsc'), '-p', EXAMPLE], { stdio: 'inherit' })
  if (typecheck.status !== 0) stop('examples/storybook does not type-check (see above).')
  console.log(`run-storybook-tests: type-check of examples/storybook: ${seconds(started)}`)
}

const reports = mkdtempSync(join(tmpdir(), 'storybook-tests-'))

/** Runs every story as a test; resolves with the test names of each story file in the order they ran. */
function runStories(order) {
  const started = performance.now()
  const outputFile = join(reports, `${order}.json`)
  const result = spawnSync(
    process.execPath,
    [join(EXAMPLE, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${outputFile}`],
    {
      cwd: EXAMPLE,
      stdio: 'inherit',
      env: { ...process.env, STORY_ORDER: order, CHROMIUM_PATH: CHROMIUM, STORYBOOK_DISABLE_TELEMETRY: '1' },
    },
  )
  if (!existsSync(outputFile)) stop(`the ${order} run wrote no report (vitest exited with ${result.status ?? result.signal}).`)
  const report = JSON.parse(readFileSync(outputFile, 'utf8'))
  const files = new Map(
    report.testResults.map((file) => [file.name.slice(EXAMPLE.length), file.assertionResults.map((test) => test.title)]),
  )
  console.log(
    `run-storybook-tests: ${order} order: ${report.numPassedTests} passed, ${report.numFailedTests} failed in ${seconds(started)}`,
  )
  for (const [file, titles] of files) console.log(`  ${file}: ${titles.join(' -> ')}`)
  // A run that exits non-zero without a failed test (an error outside the tests) counts as one failure.
  const unexplained = result.status !== 0 && report.numFailedTests === 0 ? 1 : 0
  return { passed: report.numPassedTests, failed: report.numFailedTests + unexplained, files }
}

/** A port free on 127.0.0.1 now (Storybook's dev server takes no port 0). */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/**
 * What the tests cannot show, in Storybook itself: a story with an unknown scenario shows the one
 * error that lists the scenarios (not a blank canvas), and "Remount" (Storybook's forceRemount
 * event, which its toolbar button sends) gives the story its state afresh, so its play function's
 * second cancel of order 1 is answered 204 again, not 409.
 */
async function checkInStorybook() {
  const started = performance.now()
  const port = await freePort()
  const dev = spawn(
    process.execPath,
    [join(EXAMPLE, 'node_modules/storybook/dist/bin/dispatcher.js'), 'dev', '-p', String(port), '--host', '127.0.0.1', '--ci', '--no-open'],
    { cwd: EXAMPLE, env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: '1' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  )
  let log = ''
  dev.stdout.on('data', (chunk) => {
    log += chunk
  })
  dev.stderr.on('data', (chunk) => {
    log += chunk
  })
  const base = `http://127.0.0.1:${port}`
  const { chromium } = await import(pathToFileURL(join(EXAMPLE, 'node_modules/playwright/index.mjs')).href)
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  })
  try {
    for (
      let waited = 0;
      !(await fetch(`${base}/index.json`).then(
        (r) => r.ok,
        () => false,
      ));
      waited += 250
    ) {
      if (waited > 90_000 || dev.exitCode !== null) throw new Error(`storybook dev did not start:\n${log}`)
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
    const page = await browser.newPage()
    await page.goto(`${base}/iframe.html?id=orders--unknown-scenario&viewMode=story`)
    const shown = await page
      .getByText(/is not a built-in scenario/)
      .first()
      .innerText({ timeout: 60_000 })
    const expected = `parameters.petstoreSim.scenario "shiped" is not a built-in scenario; the built-in scenarios are default, pending, shipped, missing, bad-key, flaky-network, slow-cancel.`
    if (!shown.includes(expected)) throw new Error(`the unknown scenario's story shows ${JSON.stringify(shown)}`)
    console.log(`run-storybook-tests: storybook dev shows the unknown scenario's error: ${JSON.stringify(shown)}`)

    const cancels = []
    page.on('response', (response) => {
      if (response.request().method() === 'DELETE') cancels.push(response.status())
    })
    await page.goto(`${base}/iframe.html?id=orders--pending&viewMode=story`)
    await page.getByText('Order 1 cancelled').waitFor({ timeout: 30_000 })
    await page.evaluate(() => window.__STORYBOOK_ADDONS_CHANNEL__.emit('forceRemount', { storyId: 'orders--pending' }))
    for (let waited = 0; cancels.length < 2 && waited < 15_000; waited += 100) await page.waitForTimeout(100)
    if (JSON.stringify(cancels) !== '[204,204]')
      throw new Error(`Pending, rendered then remounted, cancelled order 1 with ${JSON.stringify(cancels)}, not [204,204]`)
    console.log(`run-storybook-tests: storybook dev, Pending then "Remount": order 1 cancelled with ${cancels.join(' then ')}`)
  } finally {
    await browser.close()
    process.kill(-dev.pid)
  }
  console.log(`run-storybook-tests: storybook dev checks: ${seconds(started)}`)
}

const total = performance.now()
const forward = runStories('forward')
const reversed = runStories('reverse')
rmSync(reports, { recursive: true, force: true })
let devFailed = 0
try {
  await checkInStorybook()
} catch (error) {
  console.error(`run-storybook-tests: ${error instanceof Error ? error.message : error}`)
  devFailed = 1
}

// The second run must really have taken every file's stories the other way round.
for (const [file, titles] of forward.files) {
  const other = reversed.files.get(file) ?? []
  if (titles.length < 2 || JSON.stringify([...titles].reverse()) !== JSON.stringify(other))
    stop(`${file} did not run in reverse the second time: ${titles.join(', ')} then ${other.join(', ')}.`)
}
// The two checks in storybook dev count as two tests.
const passed = forward.passed + reversed.passed + (devFailed === 0 ? 2 : 0)
const failed = forward.failed + reversed.failed + devFailed
console.log(`run-storybook-tests: both orders in ${seconds(total)}`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
