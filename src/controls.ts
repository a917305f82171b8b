import { ApiError } from './api-error.js'
import { ErrorCode } from './error-codes.js'
import { detached } from './detached-string.js'
import { parseInt64 } from './int64.js'
import type { OperationId } from './routes.js'

/**
 * Misbehaviour on purpose, for testing a client's failure paths: latency,
 * faults and rate limits. All off by default; each simulator has its own.
 */

export const OPERATIONS: readonly OperationId[] = ['listOrders', 'cancelOrder', 'getPetById']

/** A delay in milliseconds: fixed, or drawn uniformly from a range. */
export interface Latency {
  min: number
  max: number
}

/** `50`, `"50"`, `"50-400"` or `{ min, max }`, in milliseconds. */
export type LatencyInput = number | string | Latency

/** Latency for every operation, with per-operation overrides. */
export type LatencySettings = { default?: LatencyInput } & Partial<Record<OperationId, LatencyInput>>

export type FaultKind = 'status' | 'network' | 'hang' | 'slow-body' | 'malformed-json'

/** What a fault does and when. Exactly one of `times` and `probability` may be given (neither: every time). */
export interface FaultInput {
  operation: OperationId
  /** Only requests that act on this order (cancelOrder). */
  orderId?: number | string
  kind: FaultKind
  /** For `status`: 500 (default), 502, 503 or 504. */
  status?: number
  /** For `status` 503: seconds in the Retry-After header (default 1). */
  retryAfter?: number
  /** For `slow-body`: how long the body takes to arrive, in ms (default 2000). For `hang`: the longest it hangs (default 600000). */
  durationMs?: number
  /** Fail this many times, then behave again. */
  times?: number
  /** Fail with this probability (0 to 1). */
  probability?: number
}

export interface Fault extends FaultInput {
  id: number
  /** How many more times it fires (`null`: no limit). */
  remaining: number | null
}

/** `100/60s`: at most `limit` requests per key in each window of `windowSeconds`. */
export interface RateLimit {
  limit: number
  windowSeconds: number
}

const STATUS_CODES: Readonly<Record<number, string>> = {
  500: ErrorCode.InternalError,
  502: ErrorCode.BadGateway,
  503: ErrorCode.ServiceUnavailable,
  504: ErrorCode.GatewayTimeout,
}
const FAULT_KINDS: readonly FaultKind[] = ['status', 'network', 'hang', 'slow-body', 'malformed-json']
const FAULT_FIELDS = ['operation', 'orderId', 'kind', 'status', 'retryAfter', 'durationMs', 'times', 'probability']

function invalid(message: string): ApiError {
  return new ApiError(400, ErrorCode.InvalidRequest, message)
}

function isWhole(value: unknown, min = 0): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min
}

/** Reads a latency: `50`, `"50"`, `"50-400"` or `{ min, max }` (ms, at most 60,000). Throws a 400 `ApiError`. */
export function parseLatency(input: unknown, field = 'latency'): Latency {
  let min: unknown
  let max: unknown
  if (typeof input === 'number') {
    min = input
    max = input
  } else if (typeof input === 'string' && /^\d+(-\d+)?$/.test(input.trim())) {
    const [low, high] = input.trim().split('-').map(Number)
    min = low
    max = high ?? low
  } else if (typeof input === 'object' && input !== null && 'min' in input && 'max' in input) {
    min = input.min
    max = input.max
  }
  if (!isWhole(min) || !isWhole(max) || min > max || max > 60_000) {
    throw invalid(`${field} must be milliseconds as 50, "50-400" or { "min": 50, "max": 400 } (at most 60000), got ${JSON.stringify(input)}.`)
  }
  return { min, max }
}

/** Reads latency settings: one value for every operation, or `{ default, listOrders, cancelOrder, getPetById }`. */
export function parseLatencySettings(input: unknown): Partial<Record<OperationId | 'default', Latency>> {
  if (typeof input !== 'object' || input === null || Array.isArray(input) || ('min' in input && 'max' in input)) {
    return { default: parseLatency(input) }
  }
  const settings: Partial<Record<OperationId | 'default', Latency>> = {}
  for (const [key, value] of Object.entries(input)) {
    if (key !== 'default' && !(OPERATIONS as readonly string[]).includes(key)) {
      throw invalid(`Unknown latency key "${key}"; use default, ${OPERATIONS.join(', ')}.`)
    }
    settings[key as OperationId | 'default'] = parseLatency(value, `latency.${key}`)
  }
  return settings
}

/** Reads `100/60s` (or `{ limit, windowSeconds }`). Throws a 400 `ApiError`. */
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
  throw invalid(`A rate limit is "<requests>/<window>" such as "100/60s" (s, m or h), or { "limit": 100, "windowSeconds": 60 }, got ${JSON.stringify(input)}.`)
}

/** Checks a fault description. Throws a 400 `ApiError` naming the field. */
export function parseFault(input: unknown): FaultInput {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid('A fault is a JSON object with at least "operation" and "kind".')
  const record = input as Record<string, unknown>
  const unknown = Object.keys(record).filter((key) => !FAULT_FIELDS.includes(key))
  if (unknown.length > 0) throw invalid(`Unknown fault field ${unknown.map((key) => `"${key}"`).join(', ')}; the fields are ${FAULT_FIELDS.join(', ')}.`)
  const { operation, orderId, kind, status, retryAfter, durationMs, times, probability } = record
  if (typeof operation !== 'string' || !(OPERATIONS as readonly string[]).includes(operation)) throw invalid(`"operation" must be one of ${OPERATIONS.join(', ')}, got ${JSON.stringify(operation)}.`)
  if (typeof kind !== 'string' || !(FAULT_KINDS as readonly string[]).includes(kind)) throw invalid(`"kind" must be one of ${FAULT_KINDS.join(', ')}, got ${JSON.stringify(kind)}.`)
  const fault: FaultInput = { operation: operation as OperationId, kind: kind as FaultKind }
  if (orderId !== undefined) {
    if (operation !== 'cancelOrder') throw invalid('"orderId" applies to cancelOrder only.')
    const key = typeof orderId === 'number' && Number.isSafeInteger(orderId) ? String(orderId) : typeof orderId === 'string' ? parseInt64(orderId) : null
    if (key === null) {
      const shown = typeof orderId === 'string' && orderId.length > 40 ? `${orderId.slice(0, 40)}… (${orderId.length} characters)` : JSON.stringify(orderId)
      throw invalid(`"orderId" must be an int64: a decimal integer between -9223372036854775808 and 9223372036854775807, got ${shown}.`)
    }
    // Canonical, so that a request's id is compared as a string.
    fault.orderId = typeof orderId === 'number' ? orderId : key
  }
  if (status !== undefined) {
    if (kind !== 'status' || typeof status !== 'number' || STATUS_CODES[status] === undefined) throw invalid(`"status" goes with kind "status" and is one of ${Object.keys(STATUS_CODES).join(', ')}, got ${JSON.stringify(status)}.`)
    fault.status = status
  }
  if (retryAfter !== undefined) {
    if (!isWhole(retryAfter)) throw invalid(`"retryAfter" must be whole seconds, got ${JSON.stringify(retryAfter)}.`)
    fault.retryAfter = retryAfter
  }
  if (durationMs !== undefined) {
    if (!isWhole(durationMs) || durationMs > 600_000) throw invalid(`"durationMs" must be whole milliseconds up to 600000, got ${JSON.stringify(durationMs)}.`)
    fault.durationMs = durationMs
  }
  if (times !== undefined && probability !== undefined) throw invalid('Give "times" or "probability", not both.')
  if (times !== undefined) {
    if (!isWhole(times, 1)) throw invalid(`"times" must be a whole number of 1 or more, got ${JSON.stringify(times)}.`)
    fault.times = times
  }
  if (probability !== undefined) {
    if (typeof probability !== 'number' || !(probability >= 0 && probability <= 1)) throw invalid(`"probability" must be between 0 and 1, got ${JSON.stringify(probability)}.`)
    fault.probability = probability
  }
  return fault
}

export interface Controls {
  /** The delay to wait before answering this operation, in ms. */
  delayFor(operation: OperationId): number
  setLatency(settings: Partial<Record<OperationId | 'default', Latency>>): void
  latency(): Partial<Record<OperationId | 'default', Latency>>
  /** Adds a fault; it fires before the key is checked, like a real outage. Throws a 400 `ApiError` past `MAX_FAULTS`. */
  addFault(fault: FaultInput): Fault
  faults(): Fault[]
  removeFault(id: number): boolean
  clearFaults(): void
  /** The fault that fires for this request, if any, counted down. */
  takeFault(operation: OperationId, orderId: string | null): Fault | undefined
  setRateLimit(limit: RateLimit | null): void
  rateLimit(): RateLimit | null
  /**
   * Counts one request for a key and returns the RateLimit headers to send,
   * or throws a 429 `ApiError` when the window's budget is spent. `accepted`
   * says whether the scenario accepts the key: those keep their windows
   * whatever a flood of other tokens does.
   */
  consume(key: string, accepted: boolean): Record<string, string> | undefined
}

/** How many faults one simulator (or session) holds at once. */
export const MAX_FAULTS = 100
/** How many rate-limit windows of tokens the scenario does not accept are kept; past it the oldest go. */
export const MAX_UNKNOWN_KEY_WINDOWS = 10_000
const MAX_KEY_LENGTH = 128

/** A token as a bounded key: a long one is kept as its start, its length and a hash of the whole. */
function boundedKey(token: string): string {
  if (token.length <= MAX_KEY_LENGTH) return token
  // FNV-1a: enough to tell tokens apart; a collision only shares a window.
  let hash = 0x811c9dc5
  for (let index = 0; index < token.length; index++) hash = Math.imul(hash ^ token.charCodeAt(index), 0x01000193)
  return detached(`${token.slice(0, 64)}…${token.length}:${(hash >>> 0).toString(16)}`)
}

/** Creates the controls of one simulator, all off. `random` and `now` are injectable for tests. */
export function createControls(random: () => number = Math.random, now: () => number = Date.now): Controls {
  let latency: Partial<Record<OperationId | 'default', Latency>> = {}
  let faults: Fault[] = []
  let nextId = 1
  let limit: RateLimit | null = null
  // Windows of accepted keys, and (bounded) of every other token.
  let known = new Map<string, { start: number; used: number }>()
  let unknown = new Map<string, { start: number; used: number }>()

  return {
    delayFor(operation) {
      const range = latency[operation] ?? latency.default
      if (range === undefined || range.max === 0) return 0
      return range.min + Math.floor(random() * (range.max - range.min + 1))
    },
    setLatency(settings) {
      latency = { ...settings }
    },
    latency: () => ({ ...latency }),
    addFault(input) {
      if (faults.length >= MAX_FAULTS) throw invalid(`At most ${MAX_FAULTS} faults can be active at once; remove some first (DELETE /__sim/faults).`)
      const fault: Fault = { ...input, id: nextId++, remaining: input.times ?? null }
      faults.push(fault)
      return { ...fault }
    },
    faults: () => faults.map((fault) => ({ ...fault })),
    removeFault(id) {
      const before = faults.length
      faults = faults.filter((fault) => fault.id !== id)
      return faults.length < before
    },
    clearFaults() {
      faults = []
    },
    takeFault(operation, orderId) {
      if (faults.length === 0) return undefined
      const fault = faults.find(
        (candidate) => candidate.operation === operation && (candidate.orderId === undefined || String(candidate.orderId) === orderId),
      )
      if (fault === undefined) return undefined
      if (fault.probability !== undefined && random() >= fault.probability) return undefined
      if (fault.remaining !== null) {
        fault.remaining -= 1
        if (fault.remaining <= 0) faults = faults.filter((candidate) => candidate !== fault)
      }
      return { ...fault }
    },
    setRateLimit(next) {
      limit = next
      known = new Map()
      unknown = new Map()
    },
    rateLimit: () => limit,
    consume(token, accepted) {
      if (limit === null) return undefined
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
        throw new ApiError(429, ErrorCode.RateLimited, `Too many requests for this key: the limit is ${limit.limit} per ${limit.windowSeconds} s. Retry after ${reset} s.`, {
          ...headers,
          'Retry-After': String(reset),
        })
      }
      window.used += 1
      return { ...headers, 'RateLimit-Remaining': String(limit.limit - window.used) }
    },
  }
}

/** The Error body of a `status` fault. */
export function faultError(fault: Fault): ApiError {
  const status = fault.status ?? 500
  const headers: Record<string, string> = status === 503 ? { 'Retry-After': String(fault.retryAfter ?? 1) } : {}
  return new ApiError(status, (STATUS_CODES[status] ?? ErrorCode.InternalError) as ErrorCode, `Injected fault #${fault.id}: ${fault.operation} answers ${status} on purpose.`, headers)
}
