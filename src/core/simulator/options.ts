import { parseFault, type FaultInput } from '../controls/faults.js'
import { parseLatencySettings, type LatencyRanges } from '../controls/latency.js'
import { parseRateLimit, type RateLimit } from '../controls/rate-limit.js'
import type { DeprecationDates } from '../glossary.js'
import { parseLifecycle, type LifecycleRule } from '../lifecycle/lifecycle-rule.js'
import { DEFAULT_DEPRECATION } from '../operations/get-pet-by-id.js'
import { parseApiBase, type ApiBase } from '../operations/routing.js'
import { DEFAULT_JOURNAL_SIZE } from '../state/journal.js'
import { ValidationError } from '../validation-error.js'
import type { SimulatorOptions } from './types.js'
import { quote } from '../quote-value.js'

/** The largest request body accepted (1 MiB): the operations take none. */
const DEFAULT_BODY_LIMIT = 1024 * 1024
const DEFAULT_MAX_SESSIONS = 100
const DEFAULT_SESSION_IDLE_SECONDS = 30 * 60

/** A simulator's options, checked, with their defaults. */
export interface CheckedOptions {
  baseUrl: string
  base: ApiBase
  deprecation: DeprecationDates
  journalSize: number
  bodyLimit: number
  maxSessions: number
  idleMs: number
  latency: LatencyRanges | undefined
  faults: FaultInput[]
  rateLimit: RateLimit | null
  /** The option's lifecycle (null: none, whatever the scenario says), or undefined to take the scenario's. */
  lifecycle: LifecycleRule | null | undefined
}

function toDate(value: Date | string, name: string): Date {
  const date = typeof value === 'string' ? new Date(value) : value
  // Not instanceof: a Date made in another realm (a vm context, an iframe) is a Date too.
  if (Object.prototype.toString.call(date) !== '[object Date]' || Number.isNaN(date.getTime())) {
    throw new ValidationError(`deprecation.${name}`, `deprecation.${name} must be a valid date, got ${quote(value)}.`)
  }
  return date
}

function wholeNumber(value: number, field: string, message: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new ValidationError(field, message)
  return value
}

/** A generator seed, as the options and `reset` take it. */
export function checkSeed(seed: unknown): number | undefined {
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)) {
    throw new ValidationError('seed', `seed must be a whole number of 0 or more, got ${quote(seed)}.`)
  }
  return seed
}

/** Checks every option; the error names the first one at fault. */
export function checkOptions(options: SimulatorOptions): CheckedOptions {
  const baseUrl = options.baseUrl ?? '/v1'
  const base = parseApiBase(baseUrl)
  if (options.afterCancel !== undefined && options.afterCancel !== 'keep' && options.afterCancel !== 'remove') {
    throw new ValidationError('afterCancel', `afterCancel must be "keep" or "remove", got ${quote(options.afterCancel)}.`)
  }
  const deprecation: DeprecationDates = {
    deprecatedAt: toDate(options.deprecation?.deprecatedAt ?? DEFAULT_DEPRECATION.deprecatedAt, 'deprecatedAt'),
    sunsetAt: toDate(options.deprecation?.sunsetAt ?? DEFAULT_DEPRECATION.sunsetAt, 'sunsetAt'),
  }
  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_SIZE
  wholeNumber(journalSize, 'journalSize', `journalSize must be a whole number of 0 or more, got ${quote(journalSize)}.`)
  const latency = options.latency === undefined ? undefined : parseLatencySettings(options.latency)
  const faults = (options.faults ?? []).map((fault) => parseFault(fault))
  const rateLimit = options.rateLimit === undefined ? null : parseRateLimit(options.rateLimit)
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  wholeNumber(bodyLimit, 'bodyLimit', `bodyLimit must be a whole number of bytes, got ${quote(bodyLimit)}.`)
  for (const name of ['onError', 'fallbackFetch'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new ValidationError(name, `${name} must be a function, got ${typeof options[name]}.`)
    }
  }
  const maxSessions = options.sessions?.max ?? DEFAULT_MAX_SESSIONS
  const idleMs = (options.sessions?.idleSeconds ?? DEFAULT_SESSION_IDLE_SECONDS) * 1000
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 0 || !Number.isFinite(idleMs) || idleMs <= 0) {
    throw new ValidationError('sessions', 'sessions.max must be a whole number of 0 or more and sessions.idleSeconds a number above 0.')
  }
  const lifecycle = options.lifecycle === undefined ? undefined : parseLifecycle(options.lifecycle)
  return { baseUrl, base, deprecation, journalSize, bodyLimit, maxSessions, idleMs, latency, faults, rateLimit, lifecycle }
}
