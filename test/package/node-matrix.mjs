// Runs the whole vitest suite on Node 22 and 24 (Node 20 is the machine's and
// runs it in `npm test`). The Nodes come from the npm registry as packages.
// Usage: npm run build && npm run test:matrix
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../../', import.meta.url))
for (const version of (process.env.NODE_MATRIX ?? '22,24').split(',')) {
  console.log(`\n== Node ${version}: the whole suite ==`)
  const run = spawnSync('npx', ['-y', '-p', `node@${version}`, '--', 'node', 'node_modules/vitest/vitest.mjs', 'run'], { cwd: root, stdio: 'inherit' })
  if (run.status !== 0) {
    console.error(`The suite failed on Node ${version}.`)
    process.exit(1)
  }
}
