// npm run test:mocha: docs/runtimes.md's Mocha spec (Mocha 12, chai 6 from the npm registry) through msw, with
// petstore-orders-simulator/chai; then chai's failure messages against vitest's toHaveReceived. Needs `npm run build`.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { installedVersion, mustRun, prepareProject, ROOT, runtimeFiles, step } from '../support.mjs'

const started = performance.now()
if (!existsSync(join(ROOT, 'dist/src/chai.js'))) throw new Error('dist/ has no chai.js: run `npm run build` first.')
const { files } = await runtimeFiles('mocha')
if (files['orders.spec.mjs'] === undefined) throw new Error('docs/runtimes.md has no Mocha orders.spec.mjs block.')
files['messages.spec.mjs'] = readFileSync(new URL('./messages.spec.mjs', import.meta.url), 'utf8')

const { tools, folder } = await step('install Mocha and chai in test/runtimes/mocha (npm ci --ignore-scripts)', () =>
  prepareProject('mocha', files),
)
console.log(`mocha ${installedVersion(tools, 'mocha')}, chai ${installedVersion(tools, 'chai')}`)

await step("mocha: docs/runtimes.md's spec through msw, and the failure messages", () => {
  const output = mustRun(process.execPath, [join(tools, 'node_modules/mocha/bin/mocha.js'), '--reporter', 'dot', '*.spec.mjs'], {
    cwd: folder,
  })
  console.log(output.trim())
  const tests = (files['orders.spec.mjs'].match(/^it\(/gm) ?? []).length + 1
  if (Number(/(\d+) passing/.exec(output)?.[1] ?? 0) !== tests) throw new Error(`Expected ${tests} passing Mocha tests.`)
})

await step("chai's to.have.received fails with vitest's toHaveReceived messages", async () => {
  const inChai = JSON.parse(readFileSync(join(folder, 'messages.json'), 'utf8'))
  // What vitest's matcher reports: the message of the one toHaveReceived every runner's registration calls (src/vitest.ts).
  const { createSimulator } = await import(join(ROOT, 'dist/src/index.js'))
  const { toHaveReceived } = await import(join(ROOT, 'dist/src/core/simulator/to-have-received.js'))
  const sim = createSimulator({ scenario: 'pending' })
  await sim.fetch('https://api.petstore.example/v1/store/orders/1', { method: 'DELETE' })
  const failureOf = (isNot, received, filter, options) => {
    try {
      const { pass, message } = toHaveReceived(isNot, received, filter, options)
      return pass !== isNot ? 'passed' : message()
    } catch (error) {
      return error.message
    }
  }
  const inVitest = [
    failureOf(false, sim, { operation: 'cancelOrder', orderId: 1, status: 204 }, { times: 1 }),
    failureOf(true, sim),
    failureOf(false, {}),
    failureOf(false, sim, { status: 401 }, { times: 1 }),
  ]
  if (JSON.stringify(inChai) !== JSON.stringify(inVitest))
    throw new Error(`chai's messages differ:\n  chai   ${JSON.stringify(inChai)}\n  vitest ${JSON.stringify(inVitest)}`)
  if (!inChai[0].startsWith('Expected the simulator to have received') || inChai[3] !== 'passed') throw new Error(`Unexpected: ${inChai}`)
  console.log(inChai.map((message) => `   ${message.split('\n')[0]}`).join('\n'))
})
console.log(`\nMocha tests passed in ${((performance.now() - started) / 1000).toFixed(1)} s.`)
