// Runs examples/storybook's stories as tests (Storybook 10, @storybook/addon-vitest, Chromium),
// twice in one run: in the stories' own order, then reversed. A story that passes only after
// (or before) another would fail one of the two, so both passing shows no state leaks between them.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

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

const total = performance.now()
const forward = runStories('forward')
const reversed = runStories('reverse')
rmSync(reports, { recursive: true, force: true })

// The second run must really have taken every file's stories the other way round.
for (const [file, titles] of forward.files) {
  const other = reversed.files.get(file) ?? []
  if (titles.length < 2 || JSON.stringify([...titles].reverse()) !== JSON.stringify(other))
    stop(`${file} did not run in reverse the second time: ${titles.join(', ')} then ${other.join(', ')}.`)
}
const passed = forward.passed + reversed.passed
const failed = forward.failed + reversed.failed
console.log(`run-storybook-tests: both orders in ${seconds(total)}`)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed === 0 ? 0 : 1)
