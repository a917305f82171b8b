import { expect, test } from 'vitest'
import { createJournal, MAX_JOURNAL_AUTHORIZATION, MAX_JOURNAL_BYTES, MAX_JOURNAL_PATH, type JournalRecord } from './journal.js'

const record = (path: string, status = 200): JournalRecord => ({
  time: 0,
  method: 'GET',
  path,
  status,
  duration: 1,
  operation: null,
  orderId: null,
})

test('keeps the last entries up to its capacity, oldest first', () => {
  const journal = createJournal(3)
  for (const status of [201, 202, 203, 204, 205]) journal.record(record('/v1/store/orders', status))
  expect(journal.entries().map((entry) => entry.status)).toEqual([203, 204, 205])
})

test("an entry written over an older one keeps nothing of it: forwarded, a pact's fields, the session flag", () => {
  const journal = createJournal(1)
  journal.record({
    ...record('/v1/store/inventory'),
    answeredBy: 'proxy',
    sessionRecreated: true,
    authorization: 'Bearer k',
    given: 'pending',
    code: 'x',
  })
  expect(journal.entries()[0]).toMatchObject({ forwarded: true, sessionRecreated: true })
  journal.record(record('/nope', 404))
  expect(journal.entries()).toEqual([
    { time: new Date(0).toISOString(), method: 'GET', path: '/nope', status: 404, duration: 1, operation: null, orderId: null },
  ])
  expect(journal.pactFacts().facts).toEqual([])
})

test('a long path is kept cut, with a marker saying how much is missing', () => {
  const journal = createJournal(10)
  journal.record(record(`/v1/x?${'q'.repeat(60_000)}`))
  const [entry] = journal.entries()
  expect(entry?.path.startsWith('/v1/x?qqq')).toBe(true)
  expect(entry?.path.endsWith(`…[cut: ${60_006 - MAX_JOURNAL_PATH} more characters]`)).toBe(true)
  expect(entry?.path.length).toBeLessThan(MAX_JOURNAL_PATH + 40)
})

test('past its byte budget it drops the oldest entries, whatever their count', () => {
  const journal = createJournal(100_000)
  for (let index = 0; index < 2000; index++) journal.record(record(`/v1/${index}?${'q'.repeat(2000)}`))
  const entries = journal.entries()
  const bytes = entries.reduce((sum, entry) => sum + entry.path.length + 128, 0)
  expect(bytes).toBeLessThanOrEqual(MAX_JOURNAL_BYTES)
  expect(entries.length).toBeGreaterThan(100)
  expect(entries.at(-1)?.path.startsWith('/v1/1999?')).toBe(true)
})

test('the session-recreated mark shows only on the entry that carries it', () => {
  const journal = createJournal(2)
  journal.record({ ...record('/a'), sessionRecreated: true })
  journal.record(record('/b'))
  journal.record(record('/c'))
  expect(journal.entries()).toEqual([
    expect.not.objectContaining({ sessionRecreated: expect.anything() }),
    expect.not.objectContaining({ sessionRecreated: expect.anything() }),
  ])
  const fresh = createJournal(2)
  fresh.record({ ...record('/a'), sessionRecreated: true })
  expect(fresh.entries()[0]?.sessionRecreated).toBe(true)
})

test('a pact keeps the requests a clear or the ring let go, once each, and only those the rules answered', () => {
  const journal = createJournal(2)
  const cancel = (id: string, inPact = true): JournalRecord => ({
    ...record(`/v1/store/orders/${id}`, 204),
    operation: 'cancelOrder',
    orderId: id,
    answeredBy: inPact ? 'operation' : 'fault',
    given: 'pending',
    authorization: 'Bearer k',
  })
  journal.record(cancel('1'))
  journal.record(cancel('2', false))
  journal.record(cancel('3'))
  journal.clear()
  journal.record(cancel('1'))
  expect(journal.pactFacts().facts.map((facts) => facts.path)).toEqual(['/v1/store/orders/1', '/v1/store/orders/3', '/v1/store/orders/1'])
  expect(journal.entries()).toEqual([expect.not.objectContaining({ answeredBy: expect.anything(), authorization: expect.anything() })])
})

test('a long Authorization header is kept cut', () => {
  const journal = createJournal(2)
  journal.record({ ...record('/v1/store/orders'), answeredBy: 'operation', authorization: `Bearer ${'k'.repeat(5000)}` })
  expect(journal.pactFacts().facts[0]?.authorization).toHaveLength(MAX_JOURNAL_AUTHORIZATION)
})
