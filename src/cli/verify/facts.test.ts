import { describe, expect, test } from 'vitest'
import { answerFacts, differingFacts, snippet } from './facts.js'
import type { Observed } from './probe-client.js'

const answer = (status: number, body: string, headers: Record<string, string> = {}): Observed => ({
  kind: 'answer',
  status,
  headers: new Headers(headers),
  body: new TextEncoder().encode(body),
  truncated: false,
})

describe('answerFacts', () => {
  test('reads the code of a spec Error body, WWW-Authenticate by its scheme and Allow as a sorted set', () => {
    const observed = answer(401, '{"code":"unauthorized","message":"no","status":401}', {
      'WWW-Authenticate': 'Bearer realm="api", error="invalid_token"',
      Allow: 'options, GET',
    })
    expect(answerFacts(observed, ['WWW-Authenticate', 'Allow'])).toEqual([
      ['status', '401'],
      ['code', 'unauthorized'],
      ['WWW-Authenticate', 'Bearer'],
      ['Allow', 'GET, OPTIONS'],
    ])
  })

  test('says why an error has no Error body, showing what came back', () => {
    expect(answerFacts(answer(400, '<h1>Bad</h1>'))[1]).toEqual(['code', 'no Error body: "<h1>Bad</h1>"'])
    expect(answerFacts(answer(404, '{"error":"x"}'))[1]?.[1]).toMatch(/^no Error body \(needs code, message and status\)/)
    expect(answerFacts(answer(404, '{"code":"x","message":"m","status":400}'))[1]).toEqual(['code', 'x (but its status field says 400)'])
  })

  test('an answer that never came is its reason', () => {
    expect(answerFacts({ kind: 'failure', reason: 'timed out', unreachable: false }, ['Allow'])).toEqual([
      ['status', 'no answer: timed out'],
    ])
  })
})

test('snippet keeps the first 200 bytes on one line and says how much there was', () => {
  const text = snippet(new TextEncoder().encode(`line\n${'x'.repeat(300)}`))
  expect(text).toMatch(/^"line\\nx+" \(first 200 of 305 bytes\)$/)
})

test('differingFacts names the facts that differ, a missing one counting as (none)', () => {
  expect(
    differingFacts(
      [
        ['status', '401'],
        ['WWW-Authenticate', '(none)'],
      ],
      [
        ['status', '401'],
        ['code', 'unauthorized'],
      ],
    ),
  ).toEqual(['code'])
})
