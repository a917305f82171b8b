// createSimulator({ restore }) with snapshots no simulator wrote (issue 58): a state file is untrusted
// input. A value that is no snapshot at all is refused with one TypeError line naming what is wrong, and
// nothing is left running; a bad state is left out with one warning line, the others restored.
import { afterEach, expect, test } from 'vitest'
import type { SimulatorSnapshot } from '../src/core/simulator/snapshot-schema.js'
import { internalsOf } from '../src/core/simulator/internals.js'
import { SESSION_BYTES } from '../src/core/simulator/options.js'
import { createSimulator, type Simulator, type SimulatorOptions } from '../src/index.js'
import { testTime } from './support/test-time.js'

const made: Simulator[] = []
afterEach(() => {
  for (const sim of made.splice(0)) sim.close()
})

/** A snapshot of the default state and two sessions, one with a change, as plain mutable JSON. */
async function goodSnapshot(): Promise<SimulatorSnapshot> {
  const sim = createSimulator({ scenario: 'pending' })
  made.push(sim)
  await sim.session('a').removeOrder(1)
  sim.session('b')
  return JSON.parse(JSON.stringify(sim.snapshot())) as SimulatorSnapshot
}

/** The message of the TypeError a restore of `restore` throws; it must throw one, on one line. */
function refusal(restore: unknown, options: SimulatorOptions = {}): string {
  try {
    made.push(createSimulator({ scenario: 'pending', ...options, restore: restore as SimulatorSnapshot }))
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError)
    const { message } = error as TypeError
    expect(message).toMatch(/^Failed to create the simulator: restore: /)
    expect(message).not.toMatch(/\p{Cc}/u)
    expect(message.length).toBeLessThan(400)
    return message.replace('Failed to create the simulator: restore: ', '')
  }
  throw new Error('expected the restore to be refused')
}

/** What a restore of `restore` left out: the simulator it made, and the warning lines, each on one line. */
function restored(restore: unknown, options: SimulatorOptions = {}): { sim: Simulator; warnings: string[] } {
  const warnings: string[] = []
  const sim = createSimulator({
    scenario: 'pending',
    ...options,
    restore: restore as SimulatorSnapshot,
    onRestoreWarning: (line) => warnings.push(line),
  })
  made.push(sim)
  for (const line of warnings) {
    expect(line).not.toMatch(/\p{Cc}/u)
    expect(line.length).toBeLessThan(500)
  }
  return { sim, warnings }
}

/** The warning of the one session left out of a snapshot whose others came back; the session "b" always does. */
function skipped(restore: unknown, options: SimulatorOptions = {}): string {
  const { sim, warnings } = restored(restore, options)
  expect(warnings).toHaveLength(1)
  expect(sim.sessions().map((each) => each.id)).toEqual(['b'])
  return warnings[0] as string
}

type Mutable = { states: Record<string, unknown>[] } & Record<string, unknown>
const edited = async (change: (snapshot: Mutable) => void) => {
  const snapshot = (await goodSnapshot()) as unknown as Mutable
  change(snapshot)
  return snapshot
}
const session = (snapshot: Mutable, index: number) =>
  snapshot.states[index] as Record<string, unknown> & { orders: { records: unknown[]; nextPosition?: number } }

test('another version, or no snapshot at all', async () => {
  expect(refusal(await edited((s) => (s.version = 2)))).toBe('the snapshot is of version 2; this simulator reads version 1.')
  for (const value of [null, 'snapshot', 5, [], [1]])
    expect(refusal(value)).toMatch(/^a snapshot is the object sim\.snapshot\(\) returns, got /)
  expect(refusal({})).toMatch(/version undefined/)
  expect(refusal(await edited((s) => delete s.startedWith))).toBe('startedWith is missing.')
  expect(refusal(await edited((s) => (s.states = 'none' as never)))).toMatch(/^states must be Array, got "none"\.$/)
  expect(refusal(await edited((s) => (s.extra = 1)))).toBe('extra is not a field of a snapshot.')
  expect(refusal(await edited((s) => (s.startedWith = { scenario: 'pending', port: 1 })))).toBe(
    'startedWith.port is not a field of a snapshot.',
  )
  expect(refusal(await edited((s) => (s.states = new Array(100_001).fill({}))))).toMatch(/^states holds more than 100000 states, got /)
})

test('__proto__ keys, as JSON.parse makes them: an unknown field of the document, or of the state that holds it', async () => {
  const text = JSON.stringify(await goodSnapshot())
  const top = JSON.parse(text.replace('{"version":1', '{"__proto__":{"polluted":true},"version":1'))
  expect(refusal(top)).toBe('__proto__ is not a field of a snapshot.')
  const inStart = JSON.parse(text.replace('"startedWith":{', '"startedWith":{"latency":{"__proto__":{"polluted":true}},'))
  expect(refusal(inStart)).toMatch(/^startedWith\.latency must be plain JSON/)
  const inState = JSON.parse(text.replace('"session":"a"', '"session":"a","__proto__":{}'))
  expect(skipped(inState)).toBe('session "a" not restored: states[1].__proto__ is not a field of a snapshot')
  const inControls = JSON.parse(text.replace('"controls":{', '"controls":{"__proto__":{"x":1},'))
  const { sim, warnings } = restored(inControls)
  expect(warnings).toEqual([
    "the default state not restored: states[0].controls.__proto__ is not a field of a snapshot; it starts from the simulator's scenario",
  ])
  expect(sim.sessions().map((each) => each.id)).toEqual(['a', 'b'])
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

test('three sessions, the middle one bad: the two others come back, and one warning says which and why', async () => {
  const sim = createSimulator({ scenario: 'pending' })
  made.push(sim)
  await sim.session('first').removeOrder(1)
  await sim.session('middle').removeOrder(2)
  await sim.session('last').removeOrder(3)
  const snapshot = JSON.parse(JSON.stringify(sim.snapshot())) as Mutable
  ;(session(snapshot, 2).orders.records[0] as Record<string, unknown>).status = 'lost'
  const { sim: again, warnings } = restored(snapshot)
  expect(warnings).toEqual([expect.stringMatching(/^session "middle" not restored: states\[2\]\.orders\.records\[0\]\.status /)])
  expect(again.sessions().map((each) => each.id)).toEqual(['first', 'last'])
  expect(again.session('first').order(1)).toBeUndefined()
  expect(again.session('last').order(3)).toBeUndefined()
})

test('bad, duplicate and control-character session ids; two default states; more sessions than sessions.max', async () => {
  for (const id of ['', 'a b', 'x'.repeat(129), 'a\u0007b', 'ok\nX-Injected: 1']) {
    const warning = skipped(await edited((s) => (session(s, 1).session = id)))
    expect(warning).toMatch(/^states\[1\] not restored: states\[1\]\.session /)
  }
  const twice = restored(await edited((s) => (session(s, 2).session = 'a')))
  expect(twice.warnings).toEqual(['session "a" not restored: the snapshot holds it twice, and states[1] came first'])
  expect(twice.sim.sessions().map((each) => each.id)).toEqual(['a'])
  expect(twice.sim.session('a').order(1)).toBeUndefined()

  const defaults = await edited((s) => {
    session(s, 1).session = null
    delete session(s, 1).created
  })
  expect(skipped(defaults)).toBe('1 more default state(s) not restored: a snapshot holds one (session null), and states[0] is it')

  const { sim, warnings } = restored(await goodSnapshot(), { sessions: { max: 1 } })
  expect(warnings).toEqual(["1 of the snapshot's 2 sessions not restored, the least recently used: sessions.max (--max-sessions) is 1"])
  expect(sim.sessions().map((each) => each.id)).toEqual(['b'])
  const off = restored(await goodSnapshot(), { sessions: { max: 0 } })
  expect(off.warnings).toEqual(["2 of the snapshot's 2 sessions not restored, the least recently used: sessions.max (--max-sessions) is 0"])
})

test('a million orders are left out by the memory bound before they are read; fewer past it by the charge, nothing left running', async () => {
  const snapshot = await edited((s) => {
    const [record] = session(s, 1).orders.records
    session(s, 1).orders.records = new Array(1_000_000).fill(record)
  })
  const started = performance.now()
  expect(skipped(snapshot)).toBe('session "a" not restored: the states need more than sessions.maxBytes (--max-session-memory) allows')
  expect(performance.now() - started).toBeLessThan(2000)

  // 700 orders of 1 KB each in a session, past what two sessions' fixed share leaves.
  const time = testTime()
  const crowded = await edited((s) => {
    const records = session(s, 1).orders.records as { id: string; position: number }[]
    const [record] = records
    session(s, 1).orders = {
      records: Array.from({ length: 700 }, (_, index) => ({ ...record, id: String(1000 + index), position: 100 + index, removed: false })),
      nextPosition: 800,
    }
  })
  const options: SimulatorOptions = { sessions: { maxBytes: 2 * SESSION_BYTES }, time, lifecycle: { shipAfter: '30s' } }
  const { sim, warnings } = restored(crowded, options)
  expect(warnings).toEqual([
    // Saved without a lifecycle option: the default state starts from this one.
    'the default state starts from the options, not the snapshot: the lifecycle option (--ship-after) changed',
    'session "a" not restored: the states need more than sessions.maxBytes (--max-session-memory) allows',
  ])
  // What "a" took was given back: "b" alone is charged, as when the snapshot never held "a".
  const alone = restored(await edited((s) => s.states.splice(1, 1)), { ...options, time: testTime() })
  expect(internalsOf(sim).sessionBytes()).toBe(internalsOf(alone.sim).sessionBytes())
  // Closed, the simulator stops every timer: none was left behind by the session left out.
  sim.close()
  expect(time.pending()).toBe(0)
})

test('a default state that fails half-way is put back fresh from the start scenario, never half-applied', async () => {
  const recorded = { method: 'GET', path: '/notes', status: 200, headers: { 'content-type': 'text/plain' }, bodyBase64: btoa('hi') }
  const snapshot = await edited((s) => {
    // Order 1 removed, then the same recording twice: the second does not fit.
    session(s, 0).orders = session(s, 1).orders
    session(s, 0).recorded = [recorded, recorded]
  })
  const { sim, warnings } = restored(snapshot)
  expect(warnings).toEqual([
    `the default state not restored: recorded[1] (GET "/notes") does not fit: the scenario answers it, or the bounds of recordings are reached; it starts from the simulator's scenario`,
  ])
  const fresh = createSimulator({ scenario: 'pending' })
  made.push(fresh)
  expect(sim.orders()).toEqual(fresh.orders())
  expect(sim.state().routes).toEqual(fresh.state().routes)
  expect(sim.session('a').order(1)).toBeUndefined()
})

test('a scenario named by a path the simulator did not start with leaves that state out: a snapshot reads no file', async () => {
  for (const ref of ['/etc/passwd', '../secrets.json', 'C:\\boot.ini']) {
    const warning = skipped(await edited((s) => ((session(s, 1).scenario as { ref: string }).ref = ref)))
    expect(warning).toMatch(/^session "a" not restored: scenario ".+" is a file this simulator was not started with/)
  }
  const inline = await edited((s) => (session(s, 1).scenario = { inline: '"/etc/passwd"', seed: null, fingerprint: '0123456789abcdef' }))
  expect(skipped(inline)).toBe('session "a" not restored: the embedded scenario is not a scenario object')
  const unknown = await edited((s) => ((session(s, 1).scenario as { ref: string }).ref = 'no-such-scenario'))
  const { sim, warnings } = restored(unknown)
  expect(warnings).toEqual([
    expect.stringMatching(/^session "a": scenario "no-such-scenario" no longer loads \(.*\); it starts from the simulator's scenario$/),
  ])
  expect(sim.session('a').order(1)).toBeDefined()
})

test('oversize and out-of-range numbers, bad ids of orders, a creation after the save', async () => {
  const huge = JSON.parse('1e400') as number
  const record = (s: Mutable) => session(s, 1).orders.records[0] as Record<string, unknown>
  const cases: [(s: Mutable) => void, RegExp][] = [
    [(s) => (session(s, 1).orders = { ...session(s, 1).orders, nextPosition: huge }), /^states\[1\]\.orders\.nextPosition /],
    [(s) => (record(s).quantity = 2 ** 60), /^states\[1\]\.orders\.records\[0\]\.quantity /],
    [(s) => (record(s).position = -1), /^states\[1\]\.orders\.records\[0\]\.position /],
    [(s) => (record(s).id = '01'), /^states\[1\]\.orders\.records\[0\]\.id\b/],
    [(s) => (record(s).id = '9223372036854775808'), /^states\[1\]\.orders\.records\[0\]\.id\b/],
    [(s) => (record(s).status = 'lost'), /^states\[1\]\.orders\.records\[0\]\.status /],
    [(s) => ((session(s, 1).scenario as { seed: unknown }).seed = 1.5), /^states\[1\]\.scenario\.seed is not a whole number, got 1\.5$/],
    [(s) => (session(s, 1).created = 'yesterday'), /^states\[1\]\.created /],
    [(s) => delete session(s, 1).created, /^states\[1\]\.created is missing: a session has its creation time$/],
    [(s) => (session(s, 1).created = '2999-01-01T00:00:00.000Z'), /^states\[1\]\.created \(2999-01-01T00:00:00\.000Z\) is later than/],
    [(s) => delete (session(s, 1).controls as { faults?: unknown }).faults, /^states\[1\]\.controls\.faults is missing$/],
    // A record that passes the schema but not the state: a removed order the scenario never had.
    [(s) => Object.assign(record(s), { id: '777', position: 1 }), /^(?!states\[)./],
  ]
  for (const [change, expected] of cases) {
    const warning = skipped(await edited(change))
    expect(warning.replace(/^session "a" not restored: /, '')).toMatch(expected)
  }
  expect(refusal(await edited((s) => (s.savedAt = huge)))).toMatch(/^savedAt /)
})

test('a huge string is refused by its length, and shown in a few characters', async () => {
  const long = 'x'.repeat(20_000_000)
  expect(refusal(await edited((s) => (s.simulator = long)))).toBe(
    `simulator is longer than 64 characters, got "${'x'.repeat(80)}"… (20000000 characters).`,
  )
  const warning = skipped(
    await edited((s) => (session(s, 1).scenario = { inline: `${long}${long}`, seed: null, fingerprint: '0123456789abcdef' })),
  )
  expect(warning).toMatch(/^session "a" not restored: states\[1\]\.scenario/)
})
