import { int64Key } from '../int64.js'
import { describe } from '../quote-value.js'

/** Reports the first field at fault in a scenario: it throws. */
export type Fail = (field: string, problem: string) => never

/**
 * `{...}` or `Object.create(null)`, made in any realm: a scenario built in a
 * Jest sandbox, a vm context or an iframe has another `Object.prototype`.
 * Arrays, Dates, Maps and class instances are not.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false
  }
  const prototype: unknown = Object.getPrototypeOf(value)
  if (prototype === null) return true
  return Object.getPrototypeOf(prototype) === null && Object.prototype.toString.call(value) === '[object Object]'
}

export function expectObject(value: unknown, field: string, allowed: readonly string[], fail: Fail): Record<string, unknown> {
  if (!isPlainObject(value)) {
    fail(field, `${field || 'the scenario'} must be an object, got ${describe(value)}`)
  }
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      const where = field ? `${field}.${key}` : key
      fail(where, `unknown field ${where} (allowed: ${allowed.filter((name) => name !== '$schema').join(', ')})`)
    }
  }
  return value
}

export function expectString(value: unknown, field: string, fail: Fail): string {
  if (typeof value !== 'string') {
    fail(field, `${field} must be a string, got ${describe(value)}`)
  }
  return value
}

export function expectBoolean(value: unknown, field: string, fail: Fail): boolean {
  if (typeof value !== 'boolean') {
    fail(field, `${field} must be true or false, got ${describe(value)}`)
  }
  return value
}

export function expectSafeInteger(
  value: unknown,
  field: string,
  fail: Fail,
  min = Number.MIN_SAFE_INTEGER,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const number = typeof value === 'bigint' ? Number(value) : value
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) {
    fail(field, `${field} must be an integer, got ${describe(value)}`)
  }
  if (number < min || number > max) {
    fail(field, `${field} must be between ${min} and ${max}, got ${number}`)
  }
  return number
}

export function expectInt64(value: unknown, field: string, fail: Fail): string {
  const key = int64Key(value)
  if (key === null) {
    fail(field, `${field} must be an integer between -9223372036854775808 and 9223372036854775807 (int64), got ${describe(value)}`)
  }
  return key
}

export function expectOneOf<T extends string>(value: unknown, field: string, allowed: readonly T[], fail: Fail): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    fail(field, `${field} must be one of ${allowed.map((item) => `"${item}"`).join(', ')}, got ${describe(value)}`)
  }
  return value as T
}
