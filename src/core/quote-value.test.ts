import { runInNewContext } from 'node:vm'
import { expect, test } from 'vitest'
import { parseExactJson } from './exact-json.js'
import { describe as describeValue, quote } from './quote-value.js'

test('a big integer from the exact parser is shown with every digit', () => {
  expect(quote(parseExactJson('9007199254740993'))).toBe('9007199254740993')
  expect(quote(parseExactJson('{"seed":9007199254740992}'))).toBe('{"seed":9007199254740992}')
  expect(quote(-(2n ** 70n))).toBe('-1180591620717411303424')
})

test('strings, numbers and the rest read as JSON does', () => {
  expect(quote('abc')).toBe('"abc"')
  expect(quote('a"b\n')).toBe('"a\\"b\\n"')
  expect(quote(1.5)).toBe('1.5')
  expect(quote(null)).toBe('null')
  expect(quote(true)).toBe('true')
  expect(quote(undefined)).toBe('undefined')
  expect(quote([1, 'x', { a: null }])).toBe('[1,"x",{"a":null}]')
  expect(quote(Symbol('s'))).toBe('Symbol(s)')
  expect(quote(() => 1)).toBe('a function')
})

test('boxed values show the value inside, from any realm', () => {
  expect(quote(new Number(5))).toBe('5')
  expect(quote(Object(7n))).toBe('7')
  expect(quote(runInNewContext('new String("x")'))).toBe('"x"')
  // A plain object may claim a boxed tag; it is still shown as an object.
  expect(quote({ [Symbol.toStringTag]: 'Number', valueOf: () => ({}) })).toBe('{"valueOf":a function}')
})

test('a long string, a long array and a wide object are cut to about 80 characters', () => {
  expect(quote('x'.repeat(5000))).toBe(`"${'x'.repeat(80)}"… (5000 characters)`)
  for (const value of [
    'x'.repeat(5000),
    Array.from({ length: 100_000 }, (_, index) => index),
    Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`k${index}`, index])),
  ]) {
    const shown = quote(value)
    expect(shown.length).toBeLessThanOrEqual(110)
    expect(shown).toContain('…')
  }
})

test('deep, cyclic and hostile values never throw', () => {
  let deep: unknown = 1
  for (let level = 0; level < 10_000; level += 1) deep = [deep]
  expect(quote(deep)).toBe(`${'['.repeat(8)}[…]${']'.repeat(8)}`)
  const cycle: Record<string, unknown> = { a: 1 }
  cycle['self'] = cycle
  expect(quote(cycle)).toBe('{"a":1,"self":{…}}')
  const hostile = new Proxy(
    {},
    {
      ownKeys: () => {
        throw new Error('no')
      },
    },
  )
  expect(quote(hostile)).toBe('a value that cannot be shown')
  expect(quote(Object.create(null))).toBe('{}')
})

test('a value that is not what a field takes is described by what it is', () => {
  expect(describeValue(new Date(0))).toBe('an instance of Date')
  expect(describeValue(new Map())).toBe('an instance of Map')
  expect(describeValue(Object.create(null))).toBe('a value of type object')
  expect(describeValue(undefined)).toBe('a value of type undefined')
  expect(describeValue(9007199254740993n)).toBe('9007199254740993')
  expect(describeValue('y'.repeat(200))).toBe(`the string "${'y'.repeat(80)}"… (200 characters)`)
})
