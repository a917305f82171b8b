import { expect, test } from 'vitest'
import { isDateTime, isWithinRange } from './date-time.js'

test.each([
  ['2027-01-01T00:00:00Z', true],
  ['2028-02-29t23:59:59.123456789+14:00', true],
  ['0000-01-01T00:00:00Z', true],
  ['9999-12-31T23:59:59.999Z', true],
  ['2027-02-30T00:00:00Z', false],
  ['2027-01-01', false],
  ['1', false],
  // A leap second: RFC 3339 writes one, but no Date holds it (new Date() gives Invalid Date).
  ['2026-12-31T23:59:60Z', false],
  // Past 9999 or before 0000 once in UTC: toISOString() would write a six-digit year.
  ['9999-12-31T23:00:00-05:00', false],
  ['0000-01-01T00:00:00+01:00', false],
  // The years next to them stay within whatever the offset (at most 23:59).
  ['0001-01-01T00:00:00+23:59', true],
  ['9998-12-31T23:59:59-23:59', true],
])('isDateTime(%j) is %j', (text, expected) => {
  expect(isDateTime(text)).toBe(expected)
})

test('isWithinRange takes a valid Date within the years 0000 to 9999 in UTC', () => {
  expect(isWithinRange(new Date('2027-01-01T00:00:00Z'))).toBe(true)
  expect(isWithinRange(new Date(253402300800 * 1000))).toBe(false)
  expect(isWithinRange(new Date(Number.NaN))).toBe(false)
})
