// npm run test:clients: docs/runtimes.md's clients test, sim.fetch passed to openapi-fetch (typed from the project's
// OpenAPI document by openapi-typescript), ky and ofetch, each from the npm registry: tsc checks it, then
// node --test runs it on Node 24, which runs TypeScript as it is. Needs `npm run build`.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { envWithNode } from '../../package/registry-node.mjs'
import { installedVersion, mustRun, prepareProject, ROOT, runtimeFiles, step } from '../support.mjs'

const started = performance.now()
if (!existsSync(join(ROOT, 'dist/src/index.js'))) throw new Error('dist/ is missing: run `npm run build` first.')
const { files } = await runtimeFiles('clients')
if (files['clients.test.ts'] === undefined || files['orders.client.test.mjs'] === undefined)
  throw new Error("docs/runtimes.md's clients.test.ts or README's orders.client.test.mjs block is missing.")
const tests = Object.values(files).reduce((count, text) => count + (text.match(/^test\(/gm) ?? []).length, 0)

const { tools, folder } = await step('install openapi-fetch, openapi-typescript, ky and ofetch in test/runtimes/clients', () =>
  prepareProject('clients', files),
)
console.log(['openapi-fetch', 'openapi-typescript', 'ky', 'ofetch'].map((name) => `${name} ${installedVersion(tools, name)}`).join(', '))

await step("openapi-typescript: the types of the package's OpenAPI document, as docs/runtimes.md makes them", () => {
  const document = join(folder, 'node_modules/petstore-orders-simulator/src/contract/openapi.json')
  mustRun(process.execPath, [join(tools, 'node_modules/openapi-typescript/bin/cli.js'), document, '-o', 'petstore-api.d.ts'], {
    cwd: folder,
  })
})

await step('tsc: the test type-checks against them (nodenext, strict)', () => {
  const compilerOptions = { module: 'nodenext', target: 'es2022', strict: true, noEmit: true, types: ['node'], skipLibCheck: true }
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }))
  mustRun(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: folder })
})

await step("node --test (Node 24): a list, a 204 and a 409 through each client, and README's example", () => {
  const output = mustRun('node', ['--test', '--test-reporter=tap', ...Object.keys(files)], { cwd: folder, env: envWithNode('24') })
  const passed = Number(/^# pass (\d+)/m.exec(output)?.[1] ?? 0)
  console.log(
    output
      .split('\n')
      .filter((line) => /^(ok|not ok|# (pass|fail))/.test(line))
      .join('\n'),
  )
  if (passed !== tests || !/^# fail 0/m.test(output)) throw new Error(`Expected ${tests} passing client tests:\n${output}`)
})
console.log(`\nClient tests passed in ${((performance.now() - started) / 1000).toFixed(1)} s.`)
