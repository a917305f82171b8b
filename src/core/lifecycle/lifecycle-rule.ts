import { ValidationError } from '../validation-error.js'
import * as v from 'valibot'
import { type Duration, DurationShape, parseDuration } from './duration.js'
import { quote } from '../quote-value.js'

/** How pending orders ship on their own: `{ shipAfter: "30s" }`, or a delay drawn per order, `{ min: "10s", max: "60s" }`. */
export type LifecycleInput = { shipAfter: Duration } | { min: Duration; max: Duration }

/** What parseLifecycle takes (null aside), as a scenario file's JSON Schema says it. */
export const LifecycleShape = v.union([
  v.strictObject({ shipAfter: DurationShape }),
  v.strictObject({ min: DurationShape, max: DurationShape }),
])

/** The delay before a pending order ships, in ms: drawn between `min` and `max` (equal for `shipAfter`). */
export interface LifecycleRule {
  min: number
  max: number
}

/** Reads a lifecycle; `null` is none. Errors name the field at fault, under `field`. */
export function parseLifecycle(value: unknown, field = 'lifecycle'): LifecycleRule | null {
  if (value === null) return null
  const shape = `${field} must be { "shipAfter": "30s" } or { "min": "10s", "max": "60s" }`
  if (typeof value !== 'object' || Array.isArray(value)) throw new ValidationError(field, `${shape}, got ${quote(value)}.`)
  const record = value as Record<string, unknown>
  const keys = Object.keys(record)
  const unknown = keys.find((key) => key !== 'shipAfter' && key !== 'min' && key !== 'max')
  if (unknown !== undefined) throw new ValidationError(`${field}.${unknown}`, `Unknown field ${field}.${unknown}: ${shape}.`)
  if ('shipAfter' in record) {
    if (keys.length > 1) throw new ValidationError(field, `${shape}, not both.`)
    const ms = parseDuration(record['shipAfter'], `${field}.shipAfter`)
    return { min: ms, max: ms }
  }
  if (!('min' in record) || !('max' in record)) throw new ValidationError(field, `${shape}.`)
  const min = parseDuration(record['min'], `${field}.min`)
  const max = parseDuration(record['max'], `${field}.max`)
  if (min > max)
    throw new ValidationError(field, `${field}.min (${record['min']}) must not be longer than ${field}.max (${record['max']}).`)
  return { min, max }
}
