import type { Int64 } from './glossary.js'
import { ValidationError } from './validation-error.js'
import { quote } from './quote-value.js'

const INT64_MIN = -(2n ** 63n)
const INT64_MAX = 2n ** 63n - 1n
const DECIMAL_INTEGER = /^-?[0-9]+$/

/**
 * Ids are kept as canonical decimal strings ("42", "-1",
 * "9223372036854775807") so that comparison is exact for the whole int64
 * range: "9007199254740993" never equals "9007199254740992", which a
 * `Number()` conversion would make equal.
 */
export type Int64Key = string

/**
 * Parses a decimal integer in the int64 range, as written in a URL path.
 * Returns its canonical key, or `null` for anything else (`1.5`, `1e3`,
 * `0x10`, `+1`, ` 1`, out-of-range values).
 */
export function parseInt64(text: string): Int64Key | null {
  // 20 characters hold "-9223372036854775808"; leading zeros are tolerated up to a sane length.
  if (text.length > 64 || !DECIMAL_INTEGER.test(text)) {
    return null
  }
  const value = BigInt(text)
  return value >= INT64_MIN && value <= INT64_MAX ? value.toString() : null
}

/** The canonical key of an int64 given as a number or a bigint, or `null` if it is not an integer in range. */
export function int64Key(value: unknown): Int64Key | null {
  if (typeof value === 'bigint') {
    return value >= INT64_MIN && value <= INT64_MAX ? value.toString() : null
  }
  if (typeof value === 'number' && Number.isInteger(value)) {
    return int64Key(BigInt(value))
  }
  return null
}

/** The JavaScript value of a key: a number when exactly representable, a bigint otherwise. */
export function int64Value(key: Int64Key): Int64 {
  const asNumber = Number(key)
  return String(asNumber) === key ? asNumber : BigInt(key)
}

/** An order id as the in-process API takes it (a number, a bigint or a decimal string), as a key; a `ValidationError` naming `field` otherwise. */
export function expectOrderId(value: unknown, field = 'orderId'): Int64Key {
  const key = typeof value === 'string' ? parseInt64(value) : int64Key(value)
  if (key === null) {
    throw new ValidationError(
      field,
      `"${field}" must be an int64: a decimal integer between -9223372036854775808 and 9223372036854775807, got ${quote(value)}.`,
    )
  }
  return key
}
