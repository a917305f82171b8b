import { ApiError } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { ValidationError } from '../validation-error.js'
import * as v from 'valibot'
import { isWhole, whole } from './latency.js'
import { quote } from '../quote-value.js'

/** `100/60s`: at most `limit` requests per key in each window of `windowSeconds`. */
export interface RateLimit {
  limit: number
  windowSeconds: number
}

/** How many rate-limit windows of tokens the scenario does not accept are kept; past it the oldest go. */
export const MAX_UNKNOWN_KEY_WINDOWS = 10_000
const MAX_KEY_LENGTH = 128

/** What parseRateLimit takes, as a scenario file's JSON Schema says it. */
export const RateLimitShape = v.union([
  v.pipe(v.string(), v.regex(/^\d+\/\d+(s|m|h)?$/)),
  v.strictObject({ limit: whole(1), windowSeconds: whole(1) }),
])

/** Reads `100/60s` (or `{ limit, windowSeconds }`). */
export function parseRateLimit(input: unknown): RateLimit {
  if (typeof input === 'string') {
    const match = /^(\d+)\/(\d+)(s|m|h)?$/.exec(input.trim())
    if (match !== null) {
      const unit = match[3] === 'h' ? 3600 : match[3] === 'm' ? 60 : 1
      return parseRateLimit({ limit: Number(match[1]), windowSeconds: Number(match[2]) * unit })
    }
  } else if (typeof input === 'object' && input !== null && 'limit' in input && 'windowSeconds' in input) {
    const { limit, windowSeconds } = input
    if (isWhole(limit, 1) && isWhole(windowSeconds, 1)) return { limit, windowSeconds }
  }
  throw new ValidationError(
    'rateLimit',
    `A rate limit is "<requests>/<window>" such as "100/60s" (s, m or h), ` +
      `or { "limit": 100, "windowSeconds": 60 }, got ${quote(input)}.`,
  )
}

/** A token as a bounded key: a long one is kept as its start, its length and a hash of the whole. */
function boundedKey(token: string): string {
  if (token.length <= MAX_KEY_LENGTH) return token
  // FNV-1a: enough to tell tokens apart; a collision only shares a window.
  let hash = 0x811c9dc5
  for (let index = 0; index < token.length; index++) hash = Math.imul(hash ^ token.charCodeAt(index), 0x01000193)
  return `${token.slice(0, 64)}…${token.length}:${(hash >>> 0).toString(16)}`
}

interface Window {
  start: number
  used: number
}

/** The windows of one rate limit: accepted keys apart from a bounded map of every other token. */
export function createRateLimiter(limit: RateLimit, now: () => number) {
  const known = new Map<string, Window>()
  const unknown = new Map<string, Window>()
  return {
    /**
     * Counts one request for a key and returns the RateLimit headers to send,
     * or throws a 429 `ApiError` when the window's budget is spent. `accepted`
     * says whether the scenario accepts the key: those keep their windows
     * whatever a flood of other tokens does.
     */
    consume(token: string, accepted: boolean): Record<string, string> {
      const time = now()
      const windows = accepted ? known : unknown
      const key = accepted ? token : boundedKey(token)
      let window = windows.get(key)
      if (window === undefined || time - window.start >= limit.windowSeconds * 1000) {
        window = { start: time, used: 0 }
        // Newest last, so that the oldest windows go first when the map is full.
        windows.delete(key)
        if (windows === unknown) {
          while (unknown.size >= MAX_UNKNOWN_KEY_WINDOWS) unknown.delete(unknown.keys().next().value as string)
        }
        windows.set(key, window)
      }
      const reset = Math.max(1, Math.ceil((window.start + limit.windowSeconds * 1000 - time) / 1000))
      const headers = { 'RateLimit-Limit': String(limit.limit), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(reset) }
      if (window.used >= limit.limit) {
        const message = `Too many requests for this key: the limit is ${limit.limit} per ${limit.windowSeconds} s. Retry after ${reset} s.`
        throw new ApiError(429, ErrorCode.RateLimited, message, { ...headers, 'Retry-After': String(reset) })
      }
      window.used += 1
      return { ...headers, 'RateLimit-Remaining': String(limit.limit - window.used) }
    },
  }
}
