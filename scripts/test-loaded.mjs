// npm run test:loaded: the vitest suite that `npm test` ends with, run beside four CPU-bound processes, as on a
// busy shared runner (issue 55). A test that passes on an idle machine and fails here depends on how fast the
// machine is, not on what it asserts. Two processes beside it are not enough to show that: four are.
//   npm run test:loaded                       the vitest suite (CI runs this, after npm test has built dist/)
//   npm run test:loaded -- test/cli.test.ts   arguments go to vitest: some files only
//   npm run test:loaded -- --npm-test         the whole of npm test: lint, types, build, then the suite
// TEST_LOADED_PROCESSES=<n> changes how many processes load the machine.
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)))
const LOAD = Number(process.env.TEST_LOADED_PROCESSES ?? 4)
// Each process ends itself after this long too, so none outlives a run that was itself killed.
const LIMIT_MS = 60 * 60_000
const SPIN = `const end = Date.now() + ${LIMIT_MS}; while (Date.now() < end);`

const args = process.argv.slice(2)
const npmTest = args.includes('--npm-test')
if (!npmTest && !existsSync(join(ROOT, 'dist/cli.mjs'))) {
  console.error('test:loaded runs the suite on the build: run "npm run build" (or npm test) first.')
  process.exit(2)
}

const load = Array.from({ length: LOAD }, () => spawn(process.execPath, ['-e', SPIN], { stdio: 'ignore' }))
const stopLoad = () => {
  for (const child of load) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}
process.on('exit', stopLoad)

const started = performance.now()
const [command, commandArgs] = npmTest
  ? ['npm', ['test']]
  : [process.execPath, [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...args]]
console.log(`==== test:loaded: ${npmTest ? 'npm test' : 'vitest run'} beside ${LOAD} CPU-bound processes ====`)
const suite = spawn(command, commandArgs, { cwd: ROOT, stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    suite.kill(signal)
    stopLoad()
  })
suite.on('exit', (code, signal) => {
  stopLoad()
  const minutes = ((performance.now() - started) / 60_000).toFixed(1)
  const outcome = code === 0 ? 'passed' : `failed (${code ?? signal})`
  console.log(
    `\n==== test:loaded: ${npmTest ? 'npm test' : 'the vitest suite'} ${outcome} in ${minutes} min beside ${LOAD} CPU-bound processes ====`,
  )
  process.exit(code ?? 1)
})
