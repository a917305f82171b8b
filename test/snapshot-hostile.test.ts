// createSimulator({ restore }) with snapshots no simulator wrote (issue 58): a state file is untrusted
// input. Each is refused with one TypeError line naming what is wrong, fast, and nothing is left running.
import { afterEach, expect, test } from 'vitest'
import type { SimulatorSnapshot } from '../src/core/simulator/snapshot-schema.js'
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
})

test('__proto__ keys, as JSON.parse makes them, are unknown fields at every level', async () => {
  const text = JSON.stringify(await goodSnapshot())
  const top = JSON.parse(text.replace('{"version":1', '{"__proto__":{"polluted":true},"version":1'))
  expect(refusal(top)).toBe('__proto__ is not a field of a snapshot.')
  const inState = JSON.parse(text.replace('"session":null', '"session":null,"__proto__":{}'))
  expect(refusal(inState)).toMatch(/^states\[0\]\.__proto__ is not a field of a snapshot/)
  const inControls = JSON.parse(text.replace('"controls":{', '"controls":{"__proto__":{"x":1},'))
  expect(refusal(inControls)).toMatch(/^states\[0\]\.controls\.__proto__ is not a field of a snapshot/)
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

test('bad, duplicate and control-character session ids; two default states; too many states', async () => {
  for (const id of ['', 'a b', 'x'.repeat(129), 'a\u0007b', 'ok\nX-Injected: 1']) {
    const message = refusal(await edited((s) => (session(s, 1).session = id)))
    expect(message).toMatch(/^states\[1\]\.session /)
  }
  expect(refusal(await edited((s) => (session(s, 2).session = 'a')))).toBe('session "a" is in the snapshot twice.')
  expect(
    refusal(
      await edited((s) => {
        session(s, 1).session = null
        delete session(s, 1).created
      }),
    ),
  ).toBe('the snapshot holds two default states (session null).')
  expect(refusal(await goodSnapshot(), { sessions: { max: 1 } })).toBe(
    'the snapshot holds 3 states; at most 1 sessions (sessions.max) and the default state fit.',
  )
})

test('a million orders are refused by the memory bound at once; fewer past it by the charge, nothing left running', async () => {
  const snapshot = await edited((s) => {
    const [record] = session(s, 1).orders.records
    session(s, 1).orders.records = new Array(1_000_000).fill(record)
  })
  expect(refusal(snapshot)).toBe(
    "the snapshot holds 1000000 orders of its states' own, more than sessions.maxBytes (--max-session-memory) allows.",
  )

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
  const message = refusal(crowded, { sessions: { maxBytes: 2 * SESSION_BYTES }, time, lifecycle: { shipAfter: '30s' } })
  expect(message).toBe('session "a": the states need more than sessions.maxBytes (--max-session-memory) allows')
  // The default state's and every made session's lifecycle timers were stopped.
  expect(time.pending()).toBe(0)
})

test('a scenario named by a path the simulator did not start with is refused: a snapshot reads no file', async () => {
  for (const ref of ['/etc/passwd', '../secrets.json', 'C:\\boot.ini']) {
    const message = refusal(await edited((s) => ((session(s, 1).scenario as { ref: string }).ref = ref)))
    expect(message).toContain('is a file this simulator was not started with')
  }
  const inline = await edited((s) => (session(s, 1).scenario = { inline: '"/etc/passwd"', seed: null, fingerprint: '0123456789abcdef' }))
  expect(refusal(inline)).toBe('session "a": the embedded scenario is not a scenario object')
  const unknown = await edited((s) => ((session(s, 1).scenario as { ref: string }).ref = 'no-such-scenario'))
  const warnings: string[] = []
  made.push(
    createSimulator({
      scenario: 'pending',
      restore: unknown as unknown as SimulatorSnapshot,
      onRestoreWarning: (line) => warnings.push(line),
    }),
  )
  expect(warnings).toEqual([
    expect.stringMatching(/^session "a": scenario "no-such-scenario" no longer loads \(.*\); it starts from the simulator's scenario$/),
  ])
})

test('oversize and out-of-range numbers, bad ids of orders', async () => {
  const huge = JSON.parse('1e400') as number
  const record = (s: Mutable) => session(s, 1).orders.records[0] as Record<string, unknown>
  const cases: [(s: Mutable) => void, RegExp][] = [
    [(s) => (session(s, 1).orders = { ...session(s, 1).orders, nextPosition: huge }), /^states\[1\]\.orders\.nextPosition /],
    [(s) => (record(s).quantity = 2 ** 60), /^states\[1\]\.orders\.records\[0\]\.quantity /],
    [(s) => (record(s).position = -1), /^states\[1\]\.orders\.records\[0\]\.position /],
    [(s) => (record(s).id = '01'), /^states\[1\]\.orders\.records\[0\]\.id\b/],
    [(s) => (record(s).id = '9223372036854775808'), /^states\[1\]\.orders\.records\[0\]\.id\b/],
    [(s) => (record(s).status = 'lost'), /^states\[1\]\.orders\.records\[0\]\.status /],
    [(s) => ((session(s, 1).scenario as { seed: unknown }).seed = 1.5), /^states\[1\]\.scenario\.seed is not a whole number, got 1\.5\.$/],
    [(s) => (session(s, 1).created = 'yesterday'), /^states\[1\]\.created /],
    [(s) => (s.savedAt = huge), /^savedAt /],
  ]
  for (const [change, expected] of cases) expect(refusal(await edited(change))).toMatch(expected)
  const missing = await edited((s) => delete (session(s, 1).controls as { faults?: unknown }).faults)
  expect(refusal(missing)).toBe('states[1].controls.faults is missing.')
  // A record that passes the schema but not the state: a removed order the scenario never had.
  const misfit = await edited((s) => Object.assign(record(s), { id: '777', position: 1 }))
  expect(refusal(misfit)).toMatch(/^session "a": /)
})

test('a huge string is refused by its length, and shown in a few characters', async () => {
  const long = 'x'.repeat(20_000_000)
  expect(refusal(await edited((s) => (s.simulator = long)))).toBe(
    `simulator is longer than 64 characters, got "${'x'.repeat(80)}"… (20000000 characters).`,
  )
  const message = refusal(
    await edited((s) => (session(s, 1).scenario = { inline: `${long}${long}`, seed: null, fingerprint: '0123456789abcdef' })),
  )
  expect(message).toMatch(/^states\[1\]\.scenario/)
})
