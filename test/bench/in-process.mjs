// In-process costs a consumer suite pays, printed as JSON:
// sim.reset() per built-in scenario, and one request through setupServer
// against a static msw handler returning the same JSON, on whichever msw this
// folder resolves (the bench runs it for msw 2 here and for msw 3 from the
// overlay, test/package/msw3-overlay.mjs).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { BUILTIN_SCENARIOS, createSimulator } from '../../dist/src/index.js'

const KEY = { Authorization: 'Bearer petstore-test-key' }
const mswEntry = createRequire(import.meta.url).resolve('msw')
const mswVersion = JSON.parse(readFileSync(`${mswEntry.slice(0, mswEntry.indexOf('/lib/'))}/package.json`, 'utf8')).version
const result = { msw: mswVersion, node: process.versions.node, resetMs: {}, request: {} }

for (const name of Object.keys(BUILTIN_SCENARIOS)) {
  // No latency: flaky-network and slow-cancel would otherwise time their delays, not the reset.
  const sim = createSimulator({ scenario: name, latency: 0 })
  for (let i = 0; i < 2000; i++) await sim.reset() // warm up
  // What a beforeEach pays after a test that changed something: a cancel, then a reset.
  const rounds = 5000
  let total = 0
  for (let i = 0; i < rounds; i++) {
    const pending = sim.orders().find((order) => order.status === 'pending')
    if (pending !== undefined) await fetchCancel(sim, pending.id)
    const started = performance.now()
    // Until the order model holds the orders (@msw/data writes asynchronously).
    await sim.reset()
    total += performance.now() - started
  }
  result.resetMs[name] = total / rounds
}

async function fetchCancel(sim, id) {
  // Through the handlers directly (no server listening): the reset timing is what matters here.
  const { getResponse } = await import('msw')
  await getResponse(
    [...sim.handlers],
    new Request(`https://api.petstore.example/v1/store/orders/${id}`, { method: 'DELETE', headers: KEY }),
  )
}

async function timeRequests(handlers, count) {
  const server = setupServer(...handlers)
  // Both spellings: msw 2 reads the first, msw 3 the second.
  server.listen({ onUnhandledRequest: 'error', onUnhandledFrame: 'error' })
  const url = 'https://api.petstore.example/v1/store/orders'
  for (let i = 0; i < 500; i++) await (await fetch(url, { headers: KEY })).arrayBuffer()
  const started = performance.now()
  for (let i = 0; i < count; i++) await (await fetch(url, { headers: KEY })).arrayBuffer()
  const perRequest = (performance.now() - started) / count
  server.close()
  return perRequest
}

const sim = createSimulator()
const sameJson = JSON.parse(
  await (
    await (async () => {
      const server = setupServer(...sim.handlers)
      server.listen()
      const response = await fetch('https://api.petstore.example/v1/store/orders', { headers: KEY })
      const text = await response.text()
      server.close()
      return { text: async () => text }
    })()
  ).text(),
)
const staticHandler = http.get('*/v1/store/orders', () => HttpResponse.json(sameJson))
// Interleave, so drift hits both alike.
const simulatorTimes = []
const staticTimes = []
for (let round = 0; round < 3; round++) {
  simulatorTimes.push(await timeRequests(sim.handlers, 3000))
  staticTimes.push(await timeRequests([staticHandler], 3000))
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
result.request = { simulatorMs: median(simulatorTimes), staticMswMs: median(staticTimes) }
result.request.ratio = result.request.simulatorMs / result.request.staticMswMs
console.log(JSON.stringify(result))
