import fc from 'fast-check'
import { expect, test } from 'vitest'
import { parseExactJson, parseExactJsonFile } from './exact-json.js'

test('a file is read exactly as the lossless parser reads it, whatever the JSON', () => {
  const texts = fc.oneof(
    fc.json(),
    fc.jsonValue().map((value) => JSON.stringify(value, null, 2)),
    // Keys written twice, big and long numbers, escapes: what JSON.parse alone would read otherwise.
    fc
      .tuple(fc.constantFrom('"a"', '"\\u0061"', '"b"', '"__proto__"'), fc.constantFrom('"a"', '"b"', '"\\u0062"'))
      .map(([first, second]) => `{${first}: 1, ${second}: {"n": 9007199254740993, "f": 0.12345678901234567}}`),
    fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((big) => `[${big}, "${big}", {"${big}": ${big}}]`),
  )
  fc.assert(
    fc.property(texts, (text) => {
      let expected: unknown
      try {
        expected = parseExactJson(text)
      } catch (error) {
        expect(() => parseExactJsonFile(text)).toThrow((error as Error).message)
        return
      }
      expect(parseExactJsonFile(text)).toStrictEqual(expected)
    }),
    { numRuns: 2000 },
  )
})

test('keeps every digit of an int64 past 2^53, and refuses a key written twice as the lossless parser does', () => {
  expect(parseExactJsonFile('{"id": 9223372036854775807}')).toEqual({ id: 9223372036854775807n })
  expect(() => parseExactJsonFile('{"name": "a", "name": "b"}')).toThrow("Duplicate key 'name'")
  expect(() => parseExactJsonFile('{"name": "a", "n\\u0061me": "b"}')).toThrow("Duplicate key 'name'")
  expect(() => parseExactJsonFile('{"a": 1,}')).toThrow()
})
