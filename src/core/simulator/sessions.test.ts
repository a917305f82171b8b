import { expect, test } from 'vitest'
import { ApiError } from '../api-error.js'
import type { ActiveScenario, SimulatorInstance } from './instance.js'
import { SESSION_BYTES } from './options.js'
import { createSessions, type SessionCharge } from './sessions.js'

/** A clock the test moves by hand: no sleeping to outwait idle times. */
function clock(start = 1_000_000) {
  let time = start
  return { now: () => time, advance: (ms: number) => (time += ms) }
}

/** Just enough of a state for the sessions: its timers and journal, and what it was made from. */
function fakeInstances() {
  const charges = new Map<SimulatorInstance, SessionCharge>()
  const create = (active: ActiveScenario, charge: SessionCharge): SimulatorInstance => {
    const instance = {
      active,
      lifecycle: { stop: () => undefined },
      journal: { entries: () => [] },
    } as unknown as SimulatorInstance // only the parts the sessions read
    charges.set(instance, charge)
    return instance
  }
  return { create, chargeOf: (instance: SimulatorInstance) => charges.get(instance) as SessionCharge }
}

const active = { scenario: { name: 'pending' } } as unknown as ActiveScenario // only its name is read
const refusal = (run: () => unknown): ApiError => {
  try {
    run()
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('expected a refusal')
}

test('a session in use is never dropped to make room: a new one gets 503 too_many_sessions until the oldest idles', () => {
  const time = clock()
  const { create } = fakeInstances()
  const sessions = createSessions({ maxSessions: 2, idleMs: 60_000, maxSessionBytes: 100 * SESSION_BYTES }, () => active, create, time.now)
  const a = sessions.get('a')
  time.advance(10_000)
  sessions.get('b')
  time.advance(10_000)

  const refused = refusal(() => sessions.get('c'))
  expect(refused).toMatchObject({ status: 503, code: 'too_many_sessions' })
  // The least recently used, a, goes idle 40 s from now.
  expect(refused.headers['Retry-After']).toBe('40')
  expect(refused.message).toContain('DELETE /__sim/sessions/{id}')
  expect(sessions.list().map((session) => session.id)).toEqual(['a', 'b'])
  expect(sessions.get('a')).toBe(a)

  // Used again, a is now the most recent: b idles first.
  expect(refusal(() => sessions.get('c')).headers['Retry-After']).toBe('50')
  time.advance(50_001)
  sessions.get('c')
  expect(sessions.list().map((session) => [session.id, session.recreated])).toEqual([
    ['a', null],
    ['c', null],
  ])
})

test('an ended session makes room at once, and one that expired comes back marked as recreated', () => {
  const time = clock()
  const { create } = fakeInstances()
  const sessions = createSessions({ maxSessions: 2, idleMs: 1_000, maxSessionBytes: 100 * SESSION_BYTES }, () => active, create, time.now)
  sessions.get('a')
  sessions.get('b')
  expect(sessions.end('b')).toBe(true)
  expect(sessions.end('b')).toBe(false)
  sessions.get('c')
  time.advance(1_001)
  sessions.get('a')
  expect(sessions.list().map((session) => [session.id, session.recreated])).toEqual([['a', 'expired']])
})

test('the sessions are bounded in bytes in all: a new session past the bound is refused, and ending one gives its bytes back', () => {
  const time = clock()
  const { create, chargeOf } = fakeInstances()
  const sessions = createSessions({ maxSessions: 100, idleMs: 60_000, maxSessionBytes: 3 * SESSION_BYTES }, () => active, create, time.now)
  const a = sessions.get('a')
  sessions.get('b')
  expect(sessions.bytes()).toBe(2 * SESSION_BYTES)

  // What a grows (orders it changed, a list body) counts against the same bound.
  chargeOf(a)(SESSION_BYTES / 2)
  const refused = refusal(() => sessions.get('c'))
  expect(refused).toMatchObject({ status: 503, code: 'too_many_sessions' })
  expect(refused.message).toContain('sessions.maxBytes')
  expect(Number(refused.headers['Retry-After'])).toBeGreaterThan(0)
  // Past the bound, a session's own growth is refused too, and nothing is counted for it.
  expect(refusal(() => chargeOf(a)(SESSION_BYTES))).toMatchObject({ status: 503, code: 'too_many_sessions' })
  expect(sessions.bytes()).toBe(2.5 * SESSION_BYTES)

  chargeOf(a)(-SESSION_BYTES / 2)
  sessions.get('c')
  sessions.end('a')
  expect(sessions.bytes()).toBe(2 * SESSION_BYTES)
  // A request still running on an ended session counts nothing.
  chargeOf(a)(SESSION_BYTES)
  expect(sessions.bytes()).toBe(2 * SESSION_BYTES)
  sessions.get('d')
  expect(sessions.list().map((session) => session.id)).toEqual(['b', 'c', 'd'])
})
