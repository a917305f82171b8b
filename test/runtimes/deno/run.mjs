// npm run test:deno: docs/runtimes.md's Deno tests (deno test, Deno 2.9 from the npm registry, the package read
// from node_modules with "nodeModulesDir": "manual"): through sim.fetch, and through msw. Needs `npm run build`.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { installedVersion, mustRun, prepareProject, ROOT, runtimeFiles, step } from '../support.mjs'

const started = performance.now()
if (!existsSync(join(ROOT, 'dist/src/index.js'))) throw new Error('dist/ is missing: run `npm run build` first.')
const { files } = await runtimeFiles('deno')
for (const name of ['deno.json', 'orders.test.ts', 'orders.msw.test.ts'])
  if (files[name] === undefined) throw new Error(`docs/runtimes.md has no Deno ${name} block.`)

const { tools, folder } = await step('install Deno in test/runtimes/deno (npm ci --ignore-scripts)', () =>
  prepareProject('deno', files, { copy: true }),
)
// The binary is in the platform's optional dependency, which the deno package's bin script finds without its install script.
const deno = join(tools, 'node_modules/.bin/deno')
console.log(`${mustRun(deno, ['--version']).split('\n')[0]} (deno ${installedVersion(tools, 'deno')})`)

await step("deno test: docs/runtimes.md's tests through sim.fetch, and through msw", () => {
  // DENO_DIR inside the project: nothing of Deno's is left in the home folder.
  const env = { ...process.env, NO_COLOR: '1', DENO_DIR: join(folder, '.deno'), DENO_NO_UPDATE_CHECK: '1' }
  const output = mustRun(deno, ['test', '--allow-read', '--allow-env', '--allow-sys', '--no-prompt'], { cwd: folder, env })
  console.log(output.trim().split('\n').slice(-4).join('\n'))
  const passed = Number(/ok \| (\d+) passed/.exec(output)?.[1] ?? 0)
  const tests = Object.values(files).reduce((count, text) => count + (text.match(/^Deno\.test\(/gm) ?? []).length, 0)
  if (passed !== tests || !/ 0 failed/.test(output)) throw new Error(`Expected ${tests} passing Deno tests:\n${output}`)
})
console.log(`\nDeno tests passed in ${((performance.now() - started) / 1000).toFixed(1)} s.`)
