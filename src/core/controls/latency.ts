import * as v from 'valibot'
import { OPERATION_IDS, type OperationId } from '../operations/registry.js'
import { ValidationError } from '../validation-error.js'
import { quote } from '../quote-value.js'

/**
 * A delay in milliseconds: fixed, or drawn uniformly from a range.
 * @public Named in the declarations emitted for the controls and the options.
 */
export interface Latency {
  min: number
  max: number
}

/** `50`, `"50"`, `"50-400"` or `{ min, max }`, in milliseconds. */
export type LatencyInput = number | string | Latency

/** Latency for every operation, with per-operation overrides. */
export type LatencySettings = { default?: LatencyInput } & Partial<Record<OperationId, LatencyInput>>

/** Latency settings once read: ranges by operation, `default` for the others. */
export type LatencyRanges = Partial<Record<OperationId | 'default', Latency>>

export const MAX_LATENCY_MS = 60_000

/** A whole number from `min` (to `max`), as the JSON Schema of a scenario says it. */
export const whole = (min: number, max?: number) =>
  max === undefined ? v.pipe(v.number(), v.integer(), v.minValue(min)) : v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max))
/** One latency, as a scenario file's JSON Schema says what parseLatency takes. */
export const LatencyValue = v.union([
  whole(0, MAX_LATENCY_MS),
  v.pipe(v.string(), v.regex(/^\d+(-\d+)?$/)),
  v.strictObject({ min: whole(0), max: v.pipe(v.number(), v.integer(), v.maxValue(MAX_LATENCY_MS)) }),
])
/** What parseLatencySettings takes: one latency, or one per operation. */
export const LatencyShape = v.union([
  LatencyValue,
  v.strictObject(Object.fromEntries(['default', ...OPERATION_IDS].map((name) => [name, v.optional(LatencyValue)]))),
])

export function isWhole(value: unknown, min = 0): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min
}

/** Reads a latency: `50`, `"50"`, `"50-400"` or `{ min, max }` (ms, at most 60,000). */
function parseLatency(input: unknown, field = 'latency'): Latency {
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
  if (!isWhole(min) || !isWhole(max) || min > max || max > MAX_LATENCY_MS) {
    throw new ValidationError(
      field,
      `${field} must be milliseconds as 50, "50-400" or { "min": 50, "max": 400 } ` + `(at most ${MAX_LATENCY_MS}), got ${quote(input)}.`,
    )
  }
  return { min, max }
}

/** Reads latency settings: one value for every operation, or `{ default, <operationId>... }`. */
export function parseLatencySettings(input: unknown): LatencyRanges {
  if (typeof input !== 'object' || input === null || Array.isArray(input) || ('min' in input && 'max' in input)) {
    return { default: parseLatency(input) }
  }
  const settings: LatencyRanges = {}
  for (const [key, value] of Object.entries(input)) {
    if (key !== 'default' && !(OPERATION_IDS as readonly string[]).includes(key)) {
      throw new ValidationError('latency', `Unknown latency key "${key}"; use default, ${OPERATION_IDS.join(', ')}.`)
    }
    settings[key as OperationId | 'default'] = parseLatency(value, `latency.${key}`)
  }
  return settings
}

/** The delay before answering `operation`, drawn from its range. */
export function drawDelay(ranges: LatencyRanges, operation: OperationId, random: () => number): number {
  const range = ranges[operation] ?? ranges.default
  if (range === undefined || range.max === 0) return 0
  return range.min + Math.floor(random() * (range.max - range.min + 1))
}
