// Runs the Playwright example (examples/playwright) as CI does: 2 workers, Debian's chromium, the built package.
// Without a browser it skips with the reason, except in CI, where it must run.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const IN_CI = process.env.CI === 'true' || process.env.CI === '1'

if (!existsSync(CHROMIUM)) {
  const reason = `no browser at ${CHROMIUM}. Install it with "apt-get install -y chromium" (or set CHROMIUM_PATH).`
  if (IN_CI) {
    console.error(`[e2e] CI is set but there is ${reason}`)
    process.exit(1)
  }
  console.warn(`[e2e] Skipping the Playwright example: ${reason} In CI it never skips.`)
  process.exit(0)
}
if (!existsSync(join(ROOT, 'dist/cli.mjs'))) {
  console.error('[e2e] The package is not built: run "npm run build" (npm ci does it) first.')
  process.exit(1)
}

const cli = createRequire(import.meta.url).resolve('@playwright/test/cli')
const started = performance.now()
const run = spawnSync(process.execPath, [cli, 'test', '-c', 'examples/playwright', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
})
console.log(`[e2e] examples/playwright: exit ${run.status ?? run.signal} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
process.exit(run.status ?? 1)
