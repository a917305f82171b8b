import { runInNewContext } from 'node:vm'
import { expect, test } from 'vitest'
import { describe as describeValue, isPlainObject } from './expect-value.js'

test('plain objects of any realm are plain objects', () => {
  expect(isPlainObject({ name: 'x' })).toBe(true)
  expect(isPlainObject(Object.create(null))).toBe(true)
  expect(isPlainObject(runInNewContext('({ name: "x" })'))).toBe(true)
  expect(isPlainObject(runInNewContext('Object.create(null)'))).toBe(true)
})

test('arrays, dates, maps and class instances are not, in any realm', () => {
  for (const value of [[], new Date(0), new Map(), new (class Scenario {})(), runInNewContext('[]'), runInNewContext('new Date(0)')]) {
    expect(isPlainObject(value), String(value)).toBe(false)
  }
})

test('a value that is not what a field takes is described by what it is', () => {
  expect(describeValue(new Date(0))).toBe('an instance of Date')
  expect(describeValue(new Map())).toBe('an instance of Map')
  expect(describeValue(Object.create(null))).toBe('a value of type object')
  expect(describeValue(undefined)).toBe('a value of type undefined')
})
