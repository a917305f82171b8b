import { expect, test } from 'vitest'
import { jsonTooDeep, MAX_JSON_DEPTH } from './json-depth.js'

test('ordinary bodies pass, at the limit too', () => {
  expect(jsonTooDeep('{"operation":"cancelOrder","kind":"status"}')).toBe(false)
  expect(jsonTooDeep(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toBe(false)
})

test('deeper nesting is found without parsing, however deep', () => {
  expect(jsonTooDeep(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`)).toBe(true)
  expect(jsonTooDeep('['.repeat(200_000))).toBe(true)
})

test('brackets inside strings, escaped quotes included, do not count', () => {
  expect(jsonTooDeep(JSON.stringify({ text: '['.repeat(100), quoted: '\\"[[[[' }))).toBe(false)
})
