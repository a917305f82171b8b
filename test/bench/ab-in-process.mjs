// An interleaved A/B of two builds in process: one GET /v1/store/orders through
// setupServer (default scenario), one DELETE that cancels (204, the order
// model's write) followed by `await sim.reset()`, and that reset alone.
// Each measurement runs in a child process of its own, A and B taking turns.
// Usage: BENCH_A=/path/to/before/dist/src/index.js [BENCH_B=dist/src/index.js] node test/bench/ab-in-process.mjs
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { median, ROOT, ROUNDS } from './harness.mjs'

const KEY = { Authorization: 'Bearer petstore-test-key' }

async function measure(entry) {
  const { createSimulator } = await import(pathToFileURL(entry).href)
  const { setupServer } = await import('msw/node')
  const sim = createSimulator()
  const server = setupServer(...sim.handlers)
  server.listen({ onUnhandledRequest: 'error', onUnhandledFrame: 'error' })
  const url = 'https://api.petstore.example/v1/store/orders'
  const timed = async (count, run) => {
    for (let i = 0; i < count / 4; i++) await run()
    const started = performance.now()
    for (let i = 0; i < count; i++) await run()
    return ((performance.now() - started) / count) * 1000
  }
  const requestUs = await timed(4000, async () => (await fetch(url, { headers: KEY })).arrayBuffer())
  const resetUs = await timed(4000, async () => {
    await fetch(`${url}/1`, { method: 'DELETE', headers: KEY })
    await sim.reset()
  })
  const cancelUs = await timed(4000, () => fetch(`${url}/1`, { method: 'DELETE', headers: KEY }))
  server.close()
  return { requestUs, cancelAndResetUs: resetUs, resetAfterCancelUs: resetUs - cancelUs }
}

if (process.argv[2] === '--measure') {
  console.log(JSON.stringify(await measure(process.argv[3])))
} else {
  const builds = { A: process.env.BENCH_A, B: process.env.BENCH_B ?? join(ROOT, 'dist/src/index.js') }
  const runs = { A: [], B: [] }
  for (let round = 0; round < ROUNDS * 2; round++) {
    for (const name of round % 2 === 0 ? ['A', 'B'] : ['B', 'A']) {
      const out = execFileSync(process.execPath, [new URL(import.meta.url).pathname, '--measure', builds[name]], { encoding: 'utf8' })
      runs[name].push(JSON.parse(out))
      process.stdout.write('.')
    }
  }
  console.log(`\n${ROUNDS * 2} interleaved rounds, each in its own process (default scenario, msw from this folder).`)
  console.log('| build | GET through setupServer, µs | DELETE (204) then await sim.reset(), µs | await sim.reset() after a cancel, µs |')
  console.log('|---|---|---|---|')
  const fmt = (values) => `${median(values).toFixed(1)} (${values.map((value) => value.toFixed(0)).join(', ')})`
  const columns = ['requestUs', 'cancelAndResetUs', 'resetAfterCancelUs']
  for (const name of ['A', 'B'])
    console.log(`| ${name} | ${columns.map((column) => fmt(runs[name].map((run) => run[column]))).join(' | ')} |`)
  console.log('Each cell: the median, then every round.')
}
