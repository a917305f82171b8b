import { runInNewContext } from 'node:vm'
import { expect, test } from 'vitest'
import { isPlainObject } from './plain-object.js'

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
