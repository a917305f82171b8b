// npm run bench:state-save: issue 58, "a save of 60 sessions on a 100,000-order scenario stays under 1 s and
// writes only what the sessions changed plus the scenario's name". A scenarios folder with a 100,000-order
// generated scenario, 60 sessions each with one cancel, then the saver's work, timed: the snapshot, the
// JSON text, the atomic write (temp file, fsync, rename, folder fsync). Numbers are printed, not asserted.
// Usage: node test/bench/state-save.mjs [--sessions 60] [--orders 100000] [--rounds 7]
// Needs the built package (npx tsc -p tsconfig.build.json): it imports dist/src.
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'

const dist = (path) => new URL(`../../dist/src/${path}`, import.meta.url).href
const { createSimulator } = await import(dist('node.js'))
const { internalsOf } = await import(dist('core/simulator/internals.js'))
const { writeStateFile } = await import(dist('transports/node/state-file.js'))

const KEY = 'petstore-test-key'
const API = 'https://api.petstore.example/v1'
const options = { sessions: 60, orders: 100_000, rounds: 7 }
const argv = process.argv.slice(2)
for (let i = 0; i < argv.length; i += 2) {
  const name = argv[i]?.replace(/^--/, '')
  const value = Number(argv[i + 1])
  if (!(name in options) || !Number.isSafeInteger(value) || value < 1) {
    process.stderr.write(`Usage: node test/bench/state-save.mjs [--sessions 60] [--orders 100000] [--rounds 7]\n`)
    process.exit(2)
  }
  options[name] = value
}

const work = mkdtempSync(join(tmpdir(), 'state-save-'))
const ms = (value) => `${value.toFixed(1)} ms`
try {
  const scenariosDir = join(work, 'scenarios')
  mkdirSync(scenariosDir)
  writeFileSync(
    join(scenariosDir, 'big-store.json'),
    JSON.stringify({
      name: 'big-store',
      apiKeys: [KEY],
      generate: { count: options.orders, seed: 1, statuses: { pending: 1, shipped: 1 } },
    }),
  )
  const made = performance.now()
  const sim = createSimulator({ scenariosDir, scenario: 'big-store', baseUrl: API, sessions: { max: options.sessions + 10 } })
  process.stderr.write(`simulator on ${options.orders} orders made in ${ms(performance.now() - made)}\n`)
  // One cancel per session, each of a different pending order: 60 sessions, each changed.
  const pending = sim
    .orders()
    .filter((order) => order.status === 'pending')
    .slice(0, options.sessions)
  for (const [index, order] of pending.entries()) {
    const answer = await sim.fetch(`${API}/store/orders/${order.id}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${KEY}`, 'X-Sim-Session': `qa-${index}` },
    })
    if (answer.status !== 204) throw new Error(`cancel of order ${order.id} in qa-${index}: ${answer.status}`)
  }
  const path = join(work, 'state.json')
  const internals = internalsOf(sim)
  const rounds = []
  for (let round = 0; round <= options.rounds; round++) {
    const start = performance.now()
    const revision = internals.stateRevision()
    const polled = performance.now()
    const snapshot = sim.snapshot()
    const snapshotted = performance.now()
    const text = JSON.stringify(snapshot)
    const serialized = performance.now()
    await writeStateFile(path, text)
    const written = performance.now()
    // The first round warms the code paths (and any memoized fingerprint): it is shown apart.
    rounds.push({
      revision,
      poll: polled - start,
      snapshot: snapshotted - polled,
      json: serialized - snapshotted,
      write: written - serialized,
      total: written - start,
    })
  }
  const [first, ...timed] = rounds
  const median = (key) => timed.map((each) => each[key]).sort((a, b) => a - b)[Math.floor(timed.length / 2)]
  const max = (key) => Math.max(...timed.map((each) => each[key]))
  const document = JSON.parse(JSON.stringify(sim.snapshot()))
  const ownOrders = JSON.stringify(document).match(/"position":/g)?.length ?? 0
  process.stdout.write(
    [
      `### Saving ${options.sessions} sessions (one cancel each) on ${options.orders} generated orders`,
      '',
      '| step | first save | median of the next | max of the next |',
      '|---|---:|---:|---:|',
      ...['poll', 'snapshot', 'json', 'write', 'total'].map(
        (key) => `| ${key} | ${ms(first[key])} | ${ms(median(key))} | ${ms(max(key))} |`,
      ),
      '',
      `File: ${statSync(path).size} bytes, ${document.states?.length ?? '?'} states, ${ownOrders} order records (the changes), scenario "${
        document.states?.[0]?.scenario?.ref ?? '?'
      }" named, not written.`,
      '',
    ].join('\n'),
  )
  sim.close()
} finally {
  rmSync(work, { recursive: true, force: true })
}
