// One round of `npm run bench:in-process`, in a process of its own: µs per request through (a) sim.fetch,
// (b) setupServer with the simulator's handlers (what setupSimulatorServer makes), (c) setupServer with one
// bare handler returning a fixed Response, (d) a plain function returning one; for GET list (100 orders)
// and DELETE + reset. Then µs per `await sim.reset(name)` of each built-in scenario, median of 1,000.
// Usage: node test/bench/in-process-worker.mjs <msw package folder>   (prints JSON)
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const ROOT = new URL('../../', import.meta.url).pathname
const mswFolder = process.argv[2] ?? join(ROOT, 'node_modules/msw')
const dist = (path) => import(pathToFileURL(join(ROOT, 'dist/src', path)).href)
const { BUILTIN_SCENARIOS, createSimulator } = await dist('index.js')
const { buildSimulator } = await dist('transports/msw/build-simulator.js')
const { eagerGeneration } = await dist('core/scenario/order-generation.js')
const { generateOrders } = await dist('core/scenario/generate-orders.js')

/** The ES module file of an msw export (`.` or `./node`), read from its package.json as Node's import would. */
function esmEntry(subpath) {
  const manifest = JSON.parse(readFileSync(join(mswFolder, 'package.json'), 'utf8'))
  let target = manifest.exports[subpath]
  while (typeof target === 'object' && target !== null) target = target.node ?? target.import ?? target.default
  return pathToFileURL(join(mswFolder, target)).href
}
// Loaded only for (b) and (c), after (a), (d) and the resets: what msw patches then cannot slow those down.
let msw
let setupServer
async function loadMsw() {
  msw ??= await import(esmEntry('.'))
  setupServer ??= (await import(esmEntry('./node'))).setupServer
}

const KEY = { Authorization: 'Bearer petstore-test-key' }
const LIST = 'https://api.petstore.example/v1/store/orders'
const HUNDRED = { name: 'hundred', apiKeys: ['petstore-test-key'], generate: { count: 100, seed: 1, statuses: { pending: 3, shipped: 2 } } }
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

/** µs per call of `run`, after a warm-up. */
async function perCall(count, run) {
  for (let i = 0; i < count / 4; i++) await run()
  const started = performance.now()
  for (let i = 0; i < count; i++) await run()
  return ((performance.now() - started) / count) * 1000
}

/** A simulator of 100 orders whose handlers come from the msw under test, as setupSimulatorServer makes one. */
const simulator = () => buildSimulator({ scenario: HUNDRED }, { generation: eagerGeneration(generateOrders) }, () => ({ http: msw.http }))
const sim = simulator()
const fixedJson = await (await sim.fetch(LIST, { headers: KEY })).text()
const json = { 'Content-Type': 'application/json' }
const plain = async (_input, init) =>
  init?.method === 'DELETE' ? new Response(null, { status: 204 }) : new Response(fixedJson, { headers: json })

/** Runs `measure` with an msw server of `handlers` listening, closed after. */
async function withServer(handlers, measure) {
  await loadMsw()
  const server = setupServer(...handlers())
  server.listen({ onUnhandledRequest: 'error', onUnhandledFrame: 'error' })
  try {
    return await measure()
  } finally {
    server.close()
  }
}

const list = (send) => async () => (await send(LIST, { headers: KEY })).arrayBuffer()
const cancelAndReset = (send, reset) => async () => {
  await (await send(`${LIST}/1`, { method: 'DELETE', headers: KEY })).arrayBuffer()
  await reset()
}
const bare = () => [
  msw.http.get(LIST, () => new Response(fixedJson, { headers: json })),
  msw.http.delete(`${LIST}/:id`, () => new Response(null, { status: 204 })),
]
const noReset = async () => {}
const result = { node: process.versions.node, msw: JSON.parse(readFileSync(join(mswFolder, 'package.json'), 'utf8')).version }
const cases = {
  'a list': () => perCall(4000, list(sim.fetch)),
  'a delete': () =>
    perCall(
      2000,
      cancelAndReset(sim.fetch, () => sim.reset()),
    ),
  'b list': () =>
    withServer(
      () => sim.handlers,
      () => perCall(1000, list(fetch)),
    ),
  'b delete': () =>
    withServer(
      () => sim.handlers,
      () =>
        perCall(
          1000,
          cancelAndReset(fetch, () => sim.reset()),
        ),
    ),
  'c list': () => withServer(bare, () => perCall(1000, list(fetch))),
  'c delete': () => withServer(bare, () => perCall(1000, cancelAndReset(fetch, noReset))),
  'd list': () => perCall(4000, list(plain)),
  'd delete': () => perCall(4000, cancelAndReset(plain, noReset)),
}
result.reset = {}
for (const name of Object.keys(BUILTIN_SCENARIOS)) {
  const each = createSimulator({ scenario: name })
  for (let i = 0; i < 1000; i++) await each.reset(name)
  const times = []
  for (let i = 0; i < 1000; i++) {
    const started = performance.now()
    await each.reset(name)
    times.push((performance.now() - started) * 1000)
  }
  result.reset[name] = median(times)
  each.close()
}
// A different order each round, so that what runs first (a colder JIT, a GC) falls on every case alike; msw's last.
const shuffled = (names) => names.sort(() => Math.random() - 0.5)
const names = Object.keys(cases)
for (const name of [...shuffled(names.filter((each) => !/^[bc] /.test(each))), ...shuffled(names.filter((each) => /^[bc] /.test(each)))])
  result[name] = await cases[name]()
console.log(JSON.stringify(result))
