import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { ROOT } from './support/cli-process.js'
import { linkedProject } from './support/linked-project.js'

// What a test file pays to import the package (issue 43): every module file it loads, counted as a
// loader hook sees them, in a fresh process of a consumer project outside the repository.
const HOOKS = `
export async function initialize({ port }) {
  globalThis.petstorePort = port
  // Asked, it answers on the same port: every file posted before then has arrived by the time the answer does.
  port.on('message', (message) => port.postMessage(message))
  port.unref()
}
export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context)
  if (url.startsWith('file:')) globalThis.petstorePort.postMessage(url)
  return result
}
`
const COUNT = `
import { register } from 'node:module'
import { MessageChannel } from 'node:worker_threads'
const { port1, port2 } = new MessageChannel()
const files = new Set()
const DONE = 'count.mjs: every file posted'
port1.on('message', (url) => url !== DONE && files.add(url))
register('./hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] })
const entry = await import(process.argv[2])
// What a test does first: a simulator on a built-in scenario (whose orders were made ahead of time).
const sim = (entry.setupSimulatorServer?.({ scenario: 'pending' }).sim) ?? entry.createSimulator({ scenario: 'pending' })
const response = await sim.fetch('https://api.petstore.example/v1/store/orders', { headers: { Authorization: 'Bearer petstore-test-key' } })
if (response.status !== 200) throw new Error('the list answered ' + response.status)
// The hooks thread posts each file as it loads: its answer to DONE comes after the last of them.
await new Promise((resolve) => {
  port1.on('message', (message) => message === DONE && resolve())
  port1.postMessage(DONE)
})
port1.close()
console.log(JSON.stringify([...files]))
`

const folder = linkedProject(mkdtempSync(join(tmpdir(), 'petstore-module-count-')), 'module', { 'hooks.mjs': HOOKS, 'count.mjs': COUNT })
afterAll(() => rmSync(folder, { recursive: true, force: true }))

function filesLoadedBy(entry: string): string[] {
  expect(existsSync(join(ROOT, 'dist/src/index.js')), 'run "npm run build" first (npm test does)').toBe(true)
  return JSON.parse(execFileSync(process.execPath, ['count.mjs', entry], { cwd: folder, encoding: 'utf8', timeout: 60_000 })) as string[]
}

test.each([
  ['petstore-orders-simulator/node', 350],
  ['petstore-orders-simulator', 150],
])('importing %s and answering a list loads at most %i module files, none of them faker or es-toolkit', (entry, most) => {
  const files = filesLoadedBy(entry)
  expect(files.length, files.join('\n')).toBeLessThanOrEqual(most)
  expect(files.filter((file) => /\/node_modules\/(es-toolkit|@faker-js\/faker)\//.test(file))).toEqual([])
  // The simulator's own files are among them: the count is of a real import, not of an empty one.
  expect(files.some((file) => file.endsWith('/dist/src/core/simulator/simulator.js'))).toBe(true)
})
