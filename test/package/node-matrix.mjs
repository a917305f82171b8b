// Runs the whole suite on newer Nodes with msw 3 (Node 20 with msw 2 is the
// machine's and runs in `npm test`). The Nodes come from the npm registry's
// `node` package, into .matrix/node-<version>/.
//
// msw 3 is installed as the dev dependency `msw3` (npm:msw@^3). The suite runs
// from an overlay, .matrix/msw3/: a copy of the project's files whose own
// node_modules holds only `msw`, linked to msw 3. Everything else resolves
// from the project's node_modules one folder up, so the source, the tests, the
// build (tsc, the CLI and demo bundles) and the children the tests start all
// load msw 3, and nothing in the project changes.
// Usage: npm run build && npm run test:matrix   (NODE_MATRIX=22,24,26 by default)
import { cpSync, mkdirSync, rmSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { envWithNode, ROOT as root, run } from './registry-node.mjs'

const matrix = join(root, '.matrix')
const versions = (process.env.NODE_MATRIX ?? '22,24,26').split(',')

function overlay() {
  const folder = join(matrix, 'msw3')
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(join(folder, 'node_modules'), { recursive: true })
  for (const entry of ['src', 'test', 'scenarios', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'vitest.config.ts', 'README.md']) {
    cpSync(join(root, entry), join(folder, entry), { recursive: true })
  }
  symlinkSync(join(root, 'node_modules/msw3'), join(folder, 'node_modules/msw'), 'dir')
  return folder
}

const folder = overlay()
for (const version of versions) {
  console.log(`\n== Node ${version}, msw 3: build and the whole suite ==`)
  const env = envWithNode(version, [join(root, 'node_modules/.bin')])
  try {
    run('node', ['--version'], { cwd: folder, env })
    run('node', ['-e', "import('msw/package.json', { with: { type: 'json' } }).then((m) => console.log('msw', m.default.version))"], { cwd: folder, env })
    // Source and tests against msw 3's types, then built with this Node (the CLI's code cache is for its V8).
    run('npm', ['run', 'typecheck', '--silent'], { cwd: folder, env })
    run('npm', ['run', 'build', '--silent'], { cwd: folder, env })
    run('node', [join(root, 'node_modules/vitest/vitest.mjs'), 'run'], { cwd: folder, env })
  } catch (error) {
    console.error(`The suite failed on Node ${version} with msw 3: ${error.message}`)
    process.exit(1)
  }
}
