import { expect, test } from 'vitest'
import { ValidationError } from '../validation-error.js'
import { parseDuration } from './duration.js'

test.each([
  ['30s', 30_000],
  ['250ms', 250],
  ['1.5m', 90_000],
  ['2h', 7_200_000],
  ['24h', 86_400_000],
  [' 10s ', 10_000],
  ['0s', 0],
  [1500, 1500],
  [0, 0],
])('reads %j as %d ms', (input, ms) => {
  expect(parseDuration(input, 'advance')).toBe(ms)
})

test.each([['25h'], ['86400001ms'], [-1], ['-5s'], ['30'], ['30 seconds'], ['1e3s'], [''], [Number.NaN], [null], [{}], [true], ['s']])(
  'refuses %j naming the field',
  (input) => {
    expect(() => parseDuration(input, 'lifecycle.shipAfter')).toThrow(ValidationError)
    expect(() => parseDuration(input, 'lifecycle.shipAfter')).toThrow(/^lifecycle\.shipAfter must be a duration from 0 to 24h/)
  },
)
