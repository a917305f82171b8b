import * as v from 'valibot'
import { ValidationError } from '../validation-error.js'
import { quote } from '../quote-value.js'

/** The longest duration a lifecycle or a clock advance takes: a day, past which a test is not simulating a warehouse any more. */
const MAX_DURATION_MS = 24 * 60 * 60 * 1000

/** A duration as the options, scenarios and admin API take it: `"30s"`, `"1.5m"`, `"250ms"`, `"2h"`, or a number of milliseconds. */
export type Duration = string | number

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
const DURATION = /^(\d{1,9}(?:\.\d{1,3})?)(ms|s|m|h)$/

/** What parseDuration takes, as a scenario file's JSON Schema says it. */
export const DurationShape = v.union([
  v.pipe(v.number(), v.minValue(0), v.maxValue(MAX_DURATION_MS)),
  v.pipe(v.string(), v.regex(/^\s*\d{1,9}(\.\d{1,3})?(ms|s|m|h)\s*$/)),
])

/** Milliseconds (whole) of a duration between 0 and 24 hours; a `ValidationError` naming `field` otherwise. */
export function parseDuration(value: unknown, field: string): number {
  let ms: number | undefined
  if (typeof value === 'number') ms = value
  else if (typeof value === 'string') {
    const match = DURATION.exec(value.trim())
    if (match !== null) ms = Number(match[1]) * (UNIT_MS[match[2] as string] as number)
  }
  if (ms === undefined || !Number.isFinite(ms) || ms < 0 || ms > MAX_DURATION_MS) {
    throw new ValidationError(
      field,
      `${field} must be a duration from 0 to 24h such as "30s", "250ms", "10m" or "2h" (or a number of milliseconds), got ${quote(value)}.`,
    )
  }
  return Math.round(ms)
}
