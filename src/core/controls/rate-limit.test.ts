import { expect, test } from 'vitest'
import { ApiError } from '../api-error.js'
import { createRateLimiter, MAX_UNKNOWN_KEY_WINDOWS, parseRateLimit } from './rate-limit.js'

test('reads "<requests>/<window>" with s, m or h, or the object form', () => {
  expect(parseRateLimit('100/60s')).toEqual({ limit: 100, windowSeconds: 60 })
  expect(parseRateLimit('5/2m')).toEqual({ limit: 5, windowSeconds: 120 })
  expect(parseRateLimit('1/1h')).toEqual({ limit: 1, windowSeconds: 3600 })
  expect(parseRateLimit({ limit: 3, windowSeconds: 10 })).toEqual({ limit: 3, windowSeconds: 10 })
  for (const input of ['0/60s', '100', '100/0s', { limit: 1 }, 5])
    expect(() => parseRateLimit(input), JSON.stringify(input)).toThrow('A rate limit is')
})

test('counts per key within a window, then 429 with Retry-After until the window turns', () => {
  let now = 0
  const limiter = createRateLimiter({ limit: 2, windowSeconds: 10 }, () => now)
  expect(limiter.consume('a', true)).toEqual({ 'RateLimit-Limit': '2', 'RateLimit-Remaining': '1', 'RateLimit-Reset': '10' })
  expect(limiter.consume('a', true)['RateLimit-Remaining']).toBe('0')
  now = 4_000
  expect(() => limiter.consume('a', true)).toThrow(ApiError)
  try {
    limiter.consume('a', true)
  } catch (error) {
    expect((error as ApiError).status).toBe(429)
    expect((error as ApiError).headers['Retry-After']).toBe('6')
  }
  expect(limiter.consume('b', true)['RateLimit-Remaining']).toBe('1')
  now = 10_000
  expect(limiter.consume('a', true)['RateLimit-Remaining']).toBe('1')
})

test("a flood of unknown tokens neither grows without bound nor touches an accepted key's window", () => {
  const limiter = createRateLimiter({ limit: 1, windowSeconds: 60 }, () => 0)
  limiter.consume('real', true)
  for (let index = 0; index <= MAX_UNKNOWN_KEY_WINDOWS; index++) limiter.consume(`junk-${index}-${'x'.repeat(200)}`, false)
  expect(() => limiter.consume('real', true)).toThrow('Too many requests')
  // The oldest unknown window went: that token starts afresh.
  expect(limiter.consume(`junk-0-${'x'.repeat(200)}`, false)['RateLimit-Remaining']).toBe('0')
})
