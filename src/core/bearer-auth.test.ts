import { expect, test } from 'vitest'
import { assertAuthorized } from './bearer-auth.js'

const keys = new Set(['petstore-test-key'])

test('the key check lets the same header through again, and refuses what assertAuthorized refuses', () => {
  const check = assertAuthorized
  expect(() => check('Bearer petstore-test-key', keys)).not.toThrow()
  expect(() => check('Bearer petstore-test-key', keys)).not.toThrow()
  expect(() => check('Bearer other-key', keys)).toThrow(/not accepted/)
  expect(() => check(null, keys)).toThrow(/Missing API key/)
  expect(() => check('bearer   petstore-test-key', keys)).not.toThrow()
})

test('a header it let through is checked again against other keys, and a refused one stays refused', () => {
  const check = assertAuthorized
  check('Bearer petstore-test-key', keys)
  expect(() => check('Bearer petstore-test-key', new Set<string>())).toThrow(/accepts no key/)
  expect(() => check('Bearer petstore-test-key', new Set(['petstore-test-key']))).not.toThrow()
  expect(() => check('Bearer other-key', keys)).toThrow()
  expect(() => check('Bearer other-key', keys)).toThrow()
})
