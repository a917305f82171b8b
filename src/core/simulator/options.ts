import type { ProxySetup } from '../dispatch/request-context.js'
import { parseFault } from '../controls/faults.js'
import { parseLatencySettings } from '../controls/latency.js'
import { parseRateLimit } from '../controls/rate-limit.js'
import type { DeprecationDates } from '../glossary.js'
import { parseLifecycle } from '../lifecycle/lifecycle-rule.js'
import { DEFAULT_DEPRECATION } from '../operations/get-pet-by-id.js'
import { parseApiBase } from '../operations/routing.js'
import { DEFAULT_JOURNAL_SIZE, MAX_JOURNAL_BYTES } from '../state/journal.js'
import { MAX_LEDGER_BYTES } from '../pact/interaction-ledger.js'
import { ValidationError } from '../validation-error.js'
import type { SimulatorOptions } from './types.js'
import { quote } from '../quote-value.js'
import { isDateTime, isWithinRange } from '../scenario/date-time.js'

/** The largest request body accepted (1 MiB): the operations take none. */
const DEFAULT_BODY_LIMIT = 1024 * 1024
const DEFAULT_MAX_SESSIONS = 100
const DEFAULT_SESSION_IDLE_SECONDS = 30 * 60
/** What a session may hold whatever it does: its journal and the pact interactions it lets go, and the rest of its state. */
export const SESSION_BYTES = MAX_JOURNAL_BYTES + MAX_LEDGER_BYTES + 64 * 1024
/** What the sessions may hold in all by default: orders they changed or added, list bodies, journals. */
const DEFAULT_SESSION_BYTES = 256 * 1024 * 1024

/** A simulator's options, checked, with their defaults; `proxy` is checked by the platform (simulator.ts): null, nowhere. */
export type CheckedOptions = ReturnType<typeof checkOptions> & { proxy: ProxySetup | null }

/**
 * A deprecation date: a `Date`, or a date-time checked exactly as a scenario
 * file's `deprecation` dates are (`isDateTime`). `name` is what the message
 * calls it: the option, or the flag or variable that gave it.
 */
export function checkDeprecationDate(value: unknown, field: string, name = field): Date {
  // Not instanceof: a Date made in another realm (a vm context, an iframe) is a Date too.
  const isDate = Object.prototype.toString.call(value) === '[object Date]'
  if (isDate ? isWithinRange(value as Date) : typeof value === 'string' && isDateTime(value))
    return isDate ? (value as Date) : new Date(value as string)
  throw new ValidationError(
    field,
    `${name} must be a valid date: an ISO 8601 date-time with a real calendar day and a time zone, such as ` +
      `2027-01-01T00:00:00Z, within the years 0000 to 9999, got ${quote(value)}.`,
  )
}

/**
 * Refuses a sunset before the deprecation (RFC 9745: a resource is deprecated,
 * then sunset). `names` are what the message calls the two dates.
 */
export function checkDeprecationOrder(
  dates: DeprecationDates,
  names: Record<keyof DeprecationDates, string> = { deprecatedAt: 'deprecation.deprecatedAt', sunsetAt: 'deprecation.sunsetAt' },
): void {
  if (dates.sunsetAt.getTime() >= dates.deprecatedAt.getTime()) return
  throw new ValidationError(
    'deprecation',
    `${names.sunsetAt} (${dates.sunsetAt.toISOString()}) comes before ${names.deprecatedAt} (${dates.deprecatedAt.toISOString()}): ` +
      'an operation is sunset after it is deprecated, not before.',
  )
}

/** Where the standalone server's admin API and health check live, ahead of the API: no API call under it is ever answered. */
const ADMIN_PATH = '/__sim'
/** What a segment of a base path may hold: RFC 3986's pchar less "%", characters a request's URL keeps as they stand. */
const PLAIN_SEGMENT = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]+$/

/**
 * A base path ("/v1", or "/" for the root) that requests can reach: a
 * request's URL resolves "." and ".." segments and percent-encodes spaces and
 * non-ASCII letters, so a base holding them, an escape or an empty segment,
 * or one under /__sim, would answer 404 to every call. `name` is what the
 * message calls it: the option, or the flag or variable that gave it.
 */
export function checkReachablePath(path: string, name = 'the base path'): string {
  const fail = (problem: string) => {
    throw new ValidationError('baseUrl', `${name} ${problem}, got ${quote(path)}.`)
  }
  if (!path.startsWith('/')) fail('must be a path starting with "/", such as /v1')
  const segments = path.replace(/\/+$/, '').split('/').slice(1)
  if (segments.includes('')) fail('must not hold an empty segment ("//"): no request reaches it')
  if (segments.some((segment) => segment === '.' || segment === '..'))
    fail('must not hold "." or ".." segments: a request\'s URL resolves them, so no request reaches it')
  if (segments.some((segment) => !PLAIN_SEGMENT.test(segment)))
    fail(
      "must hold only letters, digits and -._~!$&'()*+,;=:@ between its slashes (no %-escapes, spaces or other characters, " +
        "which a request's URL encodes), else no request reaches it",
    )
  const lower = path.toLowerCase()
  if (lower === ADMIN_PATH || lower.startsWith(`${ADMIN_PATH}/`))
    fail(`must not lie under ${ADMIN_PATH}, where the admin API and the health check answer first`)
  return path
}

function wholeNumber(value: number, field: string, message: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new ValidationError(field, message)
}

/** A generator seed, as the options and `reset` take it. */
export function checkSeed(seed: unknown): number | undefined {
  if (seed !== undefined && (typeof seed !== 'number' || !Number.isSafeInteger(seed) || seed < 0)) {
    throw new ValidationError('seed', `seed must be a whole number of 0 or more, got ${quote(seed)}.`)
  }
  return seed
}

/** Checks every option; the error names the first one at fault. */
export function checkOptions(options: SimulatorOptions) {
  const baseUrl = options.baseUrl ?? '/v1'
  const base = parseApiBase(baseUrl)
  // A pinned origin's URL is read as requests' URLs are: its path is already as they will send it.
  if (baseUrl.startsWith('/')) checkReachablePath(baseUrl)
  if (options.afterCancel !== undefined && options.afterCancel !== 'keep' && options.afterCancel !== 'remove') {
    throw new ValidationError('afterCancel', `afterCancel must be "keep" or "remove", got ${quote(options.afterCancel)}.`)
  }
  const deprecation: DeprecationDates = {
    deprecatedAt: checkDeprecationDate(options.deprecation?.deprecatedAt ?? DEFAULT_DEPRECATION.deprecatedAt, 'deprecation.deprecatedAt'),
    sunsetAt: checkDeprecationDate(options.deprecation?.sunsetAt ?? DEFAULT_DEPRECATION.sunsetAt, 'deprecation.sunsetAt'),
  }
  // Both given: the scenario's own dates cannot make up for them.
  if (options.deprecation?.deprecatedAt !== undefined && options.deprecation.sunsetAt !== undefined) checkDeprecationOrder(deprecation)
  const journalSize = options.journalSize ?? DEFAULT_JOURNAL_SIZE
  wholeNumber(journalSize, 'journalSize', `journalSize must be a whole number of 0 or more, got ${quote(journalSize)}.`)
  const latency = options.latency === undefined ? undefined : parseLatencySettings(options.latency)
  const faults = (options.faults ?? []).map((fault) => parseFault(fault))
  const rateLimit = options.rateLimit === undefined ? null : parseRateLimit(options.rateLimit)
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  wholeNumber(bodyLimit, 'bodyLimit', `bodyLimit must be a whole number of bytes, got ${quote(bodyLimit)}.`)
  for (const name of ['onError', 'fallbackFetch', 'onRestoreWarning'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new ValidationError(name, `${name} must be a function, got ${typeof options[name]}.`)
    }
  }
  const maxSessions = options.sessions?.max ?? DEFAULT_MAX_SESSIONS
  const idleMs = (options.sessions?.idleSeconds ?? DEFAULT_SESSION_IDLE_SECONDS) * 1000
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 0 || !Number.isFinite(idleMs) || idleMs <= 0) {
    throw new ValidationError('sessions', 'sessions.max must be a whole number of 0 or more and sessions.idleSeconds a number above 0.')
  }
  const maxSessionBytes = options.sessions?.maxBytes ?? DEFAULT_SESSION_BYTES
  if (!Number.isSafeInteger(maxSessionBytes) || maxSessionBytes < SESSION_BYTES) {
    throw new ValidationError(
      'sessions.maxBytes',
      `sessions.maxBytes must be a whole number of bytes of at least ${SESSION_BYTES} (what one session may hold), got ${quote(maxSessionBytes)}.`,
    )
  }
  // undefined takes the scenario's lifecycle; null is none, whatever the scenario says.
  const lifecycle = options.lifecycle === undefined ? undefined : parseLifecycle(options.lifecycle)
  return {
    baseUrl,
    base,
    deprecation,
    journalSize,
    bodyLimit,
    maxSessions,
    idleMs,
    maxSessionBytes,
    latency,
    faults,
    rateLimit,
    lifecycle,
  }
}
