// Runs the whole suite on newer Nodes with msw 3 (Node 20 with msw 2 is the
// machine's and runs in `npm test`), from the msw 3 overlay (msw3-overlay.mjs).
// The Nodes come from the npm registry's `node` package.
// Usage: npm run test:matrix   (NODE_MATRIX=22,24,26 by default)
import { join } from 'node:path'
import { buildMsw3Overlay, msw3Overlay } from './msw3-overlay.mjs'
import { envWithNode, ROOT, run } from './registry-node.mjs'

const versions = (process.env.NODE_MATRIX ?? '22,24,26').split(',')
const folder = msw3Overlay()
for (const version of versions) {
  console.log(`\n== Node ${version}, msw 3: type check, build and the whole suite ==`)
  const env = envWithNode(version, [join(ROOT, 'node_modules/.bin')])
  try {
    run('node', ['--version'], { cwd: folder, env })
    run('node', ['-e', "import('msw/package.json', { with: { type: 'json' } }).then((m) => console.log('msw', m.default.version))"], {
      cwd: folder,
      env,
    })
    // Built first: the Playwright specs import the package by its name, which resolves to the overlay's dist/.
    buildMsw3Overlay(env)
    // Source and tests against msw 3's types.
    run('npm', ['run', 'typecheck', '--silent'], { cwd: folder, env })
    run('node', [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run'], { cwd: folder, env })
  } catch (error) {
    console.error(`The suite failed on Node ${version} with msw 3: ${error.message}`)
    process.exit(1)
  }
}
