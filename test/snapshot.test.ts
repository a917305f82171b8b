// sim.snapshot() and createSimulator({ restore }) (issue 58, item 4): every state, through JSON, back
// into another simulator as it was: orders, scenario, controls, clock, recordings, coverage, sessions.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, onTestFinished, test } from 'vitest'
import { internalsOf } from '../src/core/simulator/internals.js'
import { SIMULATOR_VERSION } from '../src/core/simulator/snapshot.js'
import type { SimulatorSnapshot } from '../src/core/simulator/snapshot-schema.js'
import { createSimulator, type Scenario, type Simulator, type SimulatorOptions } from '../src/index.js'
import { setupSimulatorServer } from '../src/node.js'
import { API, KEY } from './support/harness.js'
import { fakeService, useStandIns } from './support/stand-in.js'
import { testTime } from './support/test-time.js'

const auth = { Authorization: `Bearer ${KEY}` }
const HOUR = 3_600_000
const startStandIn = useStandIns()

const made: Simulator[] = []
afterEach(() => {
  for (const sim of made.splice(0)) sim.close()
})
const simulator = (options: SimulatorOptions) => {
  const sim = createSimulator(options)
  made.push(sim)
  return sim
}

/** What a snapshot is after a trip through a file or a worker's message. */
const throughJson = (sim: Simulator): SimulatorSnapshot => JSON.parse(JSON.stringify(sim.snapshot())) as SimulatorSnapshot

const send = (sim: Simulator, method: string, path: string, session?: string) =>
  sim.fetch(`${API}${path}`, { method, headers: { ...auth, ...(session === undefined ? {} : { 'X-Sim-Session': session }) } })

/** The list a client gets, status included, of the default state or a session. */
async function listOf(sim: Simulator, session?: string): Promise<unknown> {
  const response = await send(sim, 'GET', '/store/orders', session)
  return { status: response.status, body: await response.json() }
}

/** What a user reads of one state without a request: nothing here counts coverage or moves a session. */
function viewOf(sim: Simulator, session?: string) {
  const view = session === undefined ? sim : sim.session(session)
  const { now: _now, ...clock } = view.clock()
  return {
    scenario: view.scenario(),
    orders: view.orders(),
    latency: view.latency(),
    faults: view.faults(),
    rateLimit: view.rateLimit(),
    clock,
    coverage: view.coverage(),
    routes: view.state().routes,
  }
}

test('the default state, a session reset to shipped and one with a cancel, a latency and a fault come back as they were', async () => {
  const standIn = await startStandIn(fakeService)
  const before = testTime(Date.UTC(2030, 0, 1))
  const sim = simulator({ scenario: 'pending', time: before, proxy: { target: `${standIn.origin}/api`, record: true } })
  // The default state: a cancel, and an answer the target gave, recorded as a route.
  expect((await send(sim, 'DELETE', '/store/orders/1')).status).toBe(204)
  expect((await send(sim, 'GET', '/store/inventory')).status).toBe(200)
  await before.advance(1000)
  await sim.session('shipped-run').reset('shipped')
  await before.advance(1000)
  const busy = sim.session('busy')
  busy.addFault({ operation: 'cancelOrder', kind: 'status', status: 503, times: 3 })
  expect((await send(sim, 'DELETE', '/store/orders/2', 'busy')).status).toBe(503)
  busy.clearFaults()
  expect((await send(sim, 'DELETE', '/store/orders/2', 'busy')).status).toBe(204)
  busy.addFault({ operation: 'listOrders', kind: 'status', status: 500, times: 2 })
  expect((await send(sim, 'GET', '/store/orders', 'busy')).status).toBe(500)
  busy.setLatency({ cancelOrder: 250 })
  await busy.advanceClock('90s')
  const created = sim.sessions().map((session) => session.created)

  const snapshot = throughJson(sim)
  expect(snapshot.version).toBe(1)
  const later = testTime(Date.UTC(2030, 0, 1) + HOUR)
  const again = simulator({ scenario: 'pending', time: later, restore: snapshot })

  // Sessions in the same order, each made when it was, each used now: a fresh idle period.
  const sessions = again.sessions()
  expect(sessions.map((session) => session.id)).toEqual(['shipped-run', 'busy'])
  expect(sessions.map((session) => session.created)).toEqual(created)
  expect(sessions.map((session) => session.lastUsed)).toEqual([new Date(later.now()).toISOString(), new Date(later.now()).toISOString()])
  for (const session of [undefined, 'shipped-run', 'busy']) expect(viewOf(again, session)).toEqual(viewOf(sim, session))
  expect(again.faults()).toEqual([])
  expect(again.session('busy').faults()).toEqual([expect.objectContaining({ operation: 'listOrders', remaining: 1 })])
  expect(again.session('shipped-run').scenario().name).toBe('shipped')
  // The lists a client gets, and the fault left over: once more, then gone.
  for (const session of [undefined, 'shipped-run']) expect(await listOf(again, session)).toEqual(await listOf(sim, session))
  for (const server of [sim, again]) expect((await send(server, 'GET', '/store/orders', 'busy')).status).toBe(500)
  expect(await listOf(again, 'busy')).toEqual(await listOf(sim, 'busy'))
  // The recorded route answers without the target.
  await standIn.close()
  const recorded = await send(again, 'GET', '/store/inventory')
  expect([recorded.status, await recorded.text()]).toEqual([200, '{"available":3,"sold":9007199254740995}'])
})

test('a change after the restore wins, and the next snapshot holds it', async () => {
  const sim = simulator({ scenario: 'pending' })
  await sim.session('a').removeOrder(3)
  const again = simulator({ scenario: 'pending', restore: throughJson(sim) })
  expect(again.session('a').order(3)).toBeUndefined()
  await again.session('a').updateOrder(1, { status: 'shipped' })
  // Without an id the order takes the lowest free one: 3, which the base holds and the session removed.
  const added = await again.session('a').addOrder({ petId: 9, quantity: 1 })
  expect(String(added.id)).toBe('3')
  const third = simulator({ scenario: 'pending', restore: throughJson(again) })
  expect(third.session('a').orders()).toEqual(again.session('a').orders())
  expect(third.session('a').order(1)?.status).toBe('shipped')
})

test('the snapshot names the package version, and leaves out sessions idle past their time', async () => {
  const time = testTime()
  const sim = simulator({ scenario: 'pending', time, sessions: { idleSeconds: 60 } })
  sim.session('old')
  await time.advance(30_000)
  sim.session('recent')
  await time.advance(31_000)
  const snapshot = sim.snapshot()
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  expect([snapshot.simulator, SIMULATOR_VERSION]).toEqual([manifest.version, manifest.version])
  expect(snapshot.savedAt).toBe(new Date(time.now()).toISOString())
  expect(snapshot.states.map((state) => state.session)).toEqual([null, 'recent'])
})

test('a scenario given as an object is named when the simulator starts with it, and embedded when a reset gave it', async () => {
  const mine: Scenario = {
    name: 'mine',
    description: 'two orders',
    apiKeys: [KEY],
    orders: [
      { id: 9007199254740993n, petId: 1, quantity: 1, status: 'pending' },
      { id: 2, petId: 2, quantity: 2, status: 'pending' },
    ],
  }
  const other: Scenario = { ...mine, name: 'other', orders: [{ id: 5, petId: 5, quantity: 5, status: 'shipped' }] }
  const sim = simulator({ scenario: mine })
  await sim.session('s').reset(other)
  await sim.session('s').addOrder({ petId: 6, quantity: 1 })
  await sim.removeOrder('9007199254740993')
  const snapshot = throughJson(sim)
  expect(snapshot.states.map((state) => ('ref' in state.scenario ? state.scenario.ref : 'inline'))).toEqual(['mine', 'inline'])
  const again = simulator({ scenario: mine, restore: snapshot })
  expect(again.orders()).toEqual(sim.orders())
  expect(again.session('s').orders()).toEqual(sim.session('s').orders())
  expect(again.session('s').scenario().name).toBe('other')
})

test('a scenarios-folder scenario that changed since the snapshot starts that state afresh, with one warning', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-folder-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const write = (quantity: number) =>
    writeFileSync(
      join(dir, 'qa.json'),
      JSON.stringify({ name: 'qa', description: 'qa', apiKeys: [KEY], orders: [{ id: 1, petId: 1, quantity, status: 'pending' }] }),
    )
  write(1)
  const sim = simulator({ scenario: 'pending', scenariosDir: dir })
  await sim.session('kept').reset('qa')
  await sim.session('kept').updateOrder(1, { status: 'cancelled' })
  await sim.session('edited').reset('qa')
  await sim.session('edited').updateOrder(1, { status: 'cancelled' })
  sim.session('edited').setLatency(5)
  const first = throughJson(sim)
  const warnings: string[] = []
  const same = simulator({ scenario: 'pending', scenariosDir: dir, restore: first, onRestoreWarning: (line) => warnings.push(line) })
  expect(same.session('edited').order(1)?.status).toBe('cancelled')
  expect(warnings).toEqual([])

  write(22)
  const again = simulator({ scenario: 'pending', scenariosDir: dir, restore: first, onRestoreWarning: (line) => warnings.push(line) })
  expect(warnings).toHaveLength(2)
  expect(warnings[0]).toMatch(/^session "kept": scenario "qa" changed since the snapshot; the state starts afresh from it$/)
  expect(again.session('edited').orders()).toEqual([{ id: 1, petId: 1, quantity: 22, status: 'pending' }])
  expect(again.session('edited').latency()).toBeNull()
})

test('stateRevision moves with what a snapshot holds, not with a read', async () => {
  const sim = simulator({ scenario: 'pending' })
  const { stateRevision } = internalsOf(sim)
  const changes: [string, () => unknown][] = [
    ['a cancel', () => sim.removeOrder(1)],
    ['a latency', () => sim.setLatency(10)],
    ['a fault', () => sim.addFault({ operation: 'listOrders', kind: 'status', status: 500 })],
    ['a session opened', () => sim.session('x')],
    ["a session's change", () => sim.session('x').setRateLimit('5/1s')],
    ['the clock', () => sim.advanceClock('1s')],
    ['a session ended', () => sim.endSession('x')],
    ['coverage cleared', () => sim.clearCoverage()],
  ]
  for (const [what, change] of changes) {
    const before = stateRevision()
    sim.orders()
    sim.sessions()
    sim.snapshot()
    expect(stateRevision(), `${what}: a read`).toBe(before)
    await change()
    expect(stateRevision(), what).toBeGreaterThan(before)
  }
})

test('setupSimulatorServer (msw/node) passes restore on', async () => {
  const sim = simulator({ scenario: 'pending' })
  await sim.session('n').removeOrder(2)
  const { sim: again } = setupSimulatorServer({ scenario: 'pending', restore: throughJson(sim) })
  made.push(again)
  expect(again.session('n').orders()).toEqual(sim.session('n').orders())
})

test('a route recorded through the proxy comes back whatever its size: 70 headers, a 9,000-character value, 1,500 emoji', async () => {
  // node:http's own bound on a request's head (16 KiB) is below the 18,000 characters of this query, escaped.
  const target = createServer({ maxHeaderSize: 64 * 1024 }, (_, response) => {
    for (let index = 0; index < 70; index++) response.setHeader(`x-header-${index}`, `value ${index}`)
    response.setHeader('x-long', 'v'.repeat(9000))
    response.setHeader('content-type', 'application/json')
    response.end('{"found":1}')
  })
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve))
  const stop = () => new Promise<void>((resolve) => target.close(() => resolve(target.closeAllConnections())))
  onTestFinished(() => (target.listening ? stop() : undefined))
  const standIn = { origin: `http://127.0.0.1:${(target.address() as AddressInfo).port}`, close: stop }
  const sim = simulator({ scenario: 'pending', proxy: { target: `${standIn.origin}/api`, record: true } })
  const emoji = '\u{1F600}'.repeat(1500)
  expect((await send(sim, 'GET', `/search?q=${encodeURIComponent(emoji)}`)).status).toBe(200)
  const [route] = sim.state().routes
  expect(route?.query).toEqual({ q: emoji })
  expect(Object.keys(route?.headers ?? {}).length).toBeGreaterThanOrEqual(71)

  const warnings: string[] = []
  const again = simulator({ scenario: 'pending', restore: throughJson(sim), onRestoreWarning: (line) => warnings.push(line) })
  expect(warnings).toEqual([])
  expect(again.state().routes).toEqual(sim.state().routes)
  await standIn.close()
  const answer = await send(again, 'GET', `/search?q=${encodeURIComponent(emoji)}`)
  expect([answer.status, answer.headers.get('x-long')?.length, await answer.text()]).toEqual([200, 9000, '{"found":1}'])
})

/** A snapshot of a default state with a cancel and a latency, and a session "s" with a cancel, taken by a simulator made with `options`. */
async function savedWith(options: SimulatorOptions): Promise<SimulatorSnapshot> {
  const sim = simulator(options)
  await sim.removeOrder(1)
  sim.setLatency(7)
  await sim.session('s').removeOrder(2)
  return throughJson(sim)
}

test('restored with the same options, the default state comes back with no warning', async () => {
  const options: SimulatorOptions = { scenario: 'pending', seed: 3, latency: '5-10', rateLimit: '100/60s', exposeStatus: true }
  const warnings: string[] = []
  const again = simulator({
    ...options,
    latency: { default: '5-10' },
    restore: await savedWith(options),
    onRestoreWarning: (line) => warnings.push(line),
  })
  expect(warnings).toEqual([])
  expect(again.order(1)).toBeUndefined()
  expect(again.latency()).toEqual({ default: { min: 7, max: 7 } })
  expect(again.session('s').order(2)).toBeUndefined()
})

test("restored with another scenario option, the default state is that scenario's, the sessions come back, one warning", async () => {
  const warnings: string[] = []
  const again = simulator({
    scenario: 'shipped',
    restore: await savedWith({ scenario: 'pending' }),
    onRestoreWarning: (line) => warnings.push(line),
  })
  expect(warnings).toEqual([
    'the default state starts from the options, not the snapshot: the scenario option (--scenario) changed from "pending" to "shipped"',
  ])
  const fresh = simulator({ scenario: 'shipped' })
  expect(viewOf(again)).toEqual(viewOf(fresh))
  expect(again.sessions().map((session) => session.id)).toEqual(['s'])
  expect(again.session('s').scenario().name).toBe('pending')
  expect(again.session('s').order(2)).toBeUndefined()
})

test('restored with another latency, seed or object, the default state starts from the options', async () => {
  const saved = await savedWith({ scenario: 'pending' })
  const cases: [SimulatorOptions, string][] = [
    [{ latency: 20 }, 'the latency option (--latency) changed'],
    [{ seed: 4 }, 'the seed option (--seed) changed from not given to 4'],
    [
      { afterCancel: 'remove', rateLimit: '5/1s' },
      'the rateLimit option (--rate-limit) changed; the afterCancel option (--after-cancel) changed from not given to "remove"',
    ],
  ]
  for (const [options, change] of cases) {
    const warnings: string[] = []
    const again = simulator({ scenario: 'pending', ...options, restore: saved, onRestoreWarning: (line) => warnings.push(line) })
    expect(warnings).toEqual([`the default state starts from the options, not the snapshot: ${change}`])
    expect(again.order(1)).toBeDefined()
    expect(again.latency()).toEqual(simulator({ scenario: 'pending', ...options }).latency())
    expect(again.session('s').order(2)).toBeUndefined()
  }
  const two = (quantity: number): Scenario['orders'] => [
    { id: 1, petId: 1, quantity, status: 'pending' },
    { id: 2, petId: 2, quantity: 1, status: 'pending' },
  ]
  const mine: Scenario = { name: 'mine', description: 'two orders', apiKeys: [KEY], orders: two(1) }
  const edited: Scenario = { ...mine, orders: two(2) }
  const ofMine = await savedWith({ scenario: mine })
  const warnings: string[] = []
  simulator({ scenario: structuredClone(mine), restore: ofMine, onRestoreWarning: (line) => warnings.push(line) })
  expect(warnings).toEqual([])
  const again = simulator({ scenario: edited, restore: ofMine, onRestoreWarning: (line) => warnings.push(line) })
  expect(warnings).toEqual([
    'the default state starts from the options, not the snapshot: the scenario option (--scenario) changed: the object "mine" is not the same one',
    expect.stringMatching(/^session "s": scenario "mine" changed since the snapshot; the state starts afresh from it$/),
  ])
  expect(again.orders()).toEqual(two(2))
  expect(again.session('s').orders()).toEqual(two(2))
})

test('restored with another start file, a session on the old one is left out with a warning, the others come back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'snapshot-start-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const [first, second] = ['first', 'second'].map((name) => {
    const path = join(dir, `${name}.json`)
    writeFileSync(
      path,
      JSON.stringify({ name, description: name, apiKeys: [KEY], orders: [{ id: 1, petId: 1, quantity: 1, status: 'pending' }] }),
    )
    return path
  })
  const sim = simulator({ scenario: first })
  sim.session('on-start')
  await sim.session('built-in').reset('shipped')
  const warnings: string[] = []
  const again = simulator({ scenario: second, restore: throughJson(sim), onRestoreWarning: (line) => warnings.push(line) })
  expect(warnings).toEqual([
    `the default state starts from the options, not the snapshot: the scenario option (--scenario) changed from ${JSON.stringify(first)} to ${JSON.stringify(second)}`,
    expect.stringMatching(/^session "on-start" not restored: scenario ".*first\.json" is a file this simulator was not started with/),
  ])
  expect(again.sessions().map((session) => session.id)).toEqual(['built-in'])
  expect(again.scenario().name).toBe('second')
})
