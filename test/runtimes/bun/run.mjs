// npm run test:bun: README's vitest example as a Bun test (bun test, Bun 1.4 from the npm registry), through msw
// (its first three lines replaced as docs/runtimes.md says) and through sim.fetch (docs/runtimes.md's header, then
// README's tests), expect(sim).toHaveReceived(...) registered by petstore-orders-simulator/bun. Needs `npm run build`.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { installedVersion, mustRun, prepareProject, ROOT, runtimeFiles, step } from '../support.mjs'

const started = performance.now()
if (!existsSync(join(ROOT, 'dist/src/bun.js'))) throw new Error('dist/ has no bun.js: run `npm run build` first.')
const { files, example, withTestsOf } = await runtimeFiles('bun')
const header = files['orders.test.ts']
const fetchHeader = files['orders.fetch.test.ts']
if (header === undefined || fetchHeader === undefined)
  throw new Error('docs/runtimes.md has no Bun orders.test.ts or orders.fetch.test.ts block.')

/** README's example with its first lines (a comment, then three imports) replaced by the doc's. */
function readmeExampleFor(replacement) {
  const lines = example.split('\n')
  const firstImport = lines.findIndex((line) => line.startsWith('import '))
  const imports = replacement.split('\n').filter((line) => line.startsWith('import ')).length
  if (!lines.slice(firstImport, firstImport + imports).every((line) => line.startsWith('import ')))
    throw new Error(`README's vitest example no longer starts with ${imports} imports for docs/runtimes.md to replace.`)
  return `${replacement.trimEnd()}\n${lines.slice(firstImport + imports).join('\n')}`
}

const { tools, folder } = await step('install Bun in test/runtimes/bun (npm ci --ignore-scripts)', () =>
  prepareProject('bun', { 'orders.test.ts': readmeExampleFor(header), 'orders.fetch.test.ts': withTestsOf(fetchHeader) }),
)
// The bun package's own bin is a stub its install script replaces; the binary is in the platform's optional dependency.
const bun = join(tools, 'node_modules', `@oven/bun-${process.platform}-${process.arch}`, 'bin', 'bun')
console.log(`Bun ${mustRun(bun, ['--version']).trim()} (bun ${installedVersion(tools, 'bun')})`)

await step("bun test: README's example through msw, and through sim.fetch", () => {
  const output = mustRun(bun, ['test'], { cwd: folder, env: { ...process.env, NO_COLOR: '1' } })
  console.log(output.trim().split('\n').slice(-6).join('\n'))
  const passed = Number(/(\d+) pass/.exec(output)?.[1] ?? 0)
  const tests = (example.match(/^test\(/gm) ?? []).length
  if (passed !== tests * 2 || !/ 0 fail/.test(output)) throw new Error(`Expected ${tests * 2} passing Bun tests:\n${output}`)
  if (!existsSync(join(folder, 'pacts/orders-web-petstore-orders-service.json')))
    throw new Error("README's example wrote no pact under Bun.")
})
console.log(`\nBun tests passed in ${((performance.now() - started) / 1000).toFixed(1)} s.`)
