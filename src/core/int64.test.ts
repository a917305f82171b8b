import { expect, test } from 'vitest'
import { int64Key, int64Value, parseInt64 } from './int64.js'

test('parseInt64 takes decimal integers in the int64 range and gives their canonical key', () => {
  expect(parseInt64('42')).toBe('42')
  expect(parseInt64('-1')).toBe('-1')
  expect(parseInt64('007')).toBe('7')
  expect(parseInt64('9223372036854775807')).toBe('9223372036854775807')
  expect(parseInt64('-9223372036854775808')).toBe('-9223372036854775808')
})

test('parseInt64 refuses what is no decimal int64', () => {
  for (const text of ['', '1.5', '1e3', '0x10', '+1', ' 1', 'abc', '9223372036854775808', '-9223372036854775809', '1'.repeat(65)]) {
    expect(parseInt64(text), text).toBeNull()
  }
})

test('keys compare exactly beyond 2^53, where numbers would not', () => {
  expect(parseInt64('9007199254740993')).not.toBe(parseInt64('9007199254740992'))
  expect(int64Key(9007199254740993n)).toBe('9007199254740993')
  expect(int64Key(1.5)).toBeNull()
  expect(int64Key(2n ** 63n)).toBeNull()
})

test('int64Value gives a number when exact, a bigint otherwise', () => {
  expect(int64Value('42')).toBe(42)
  expect(int64Value('9223372036854775807')).toBe(9223372036854775807n)
})
