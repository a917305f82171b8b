import { stringify } from 'lossless-json'
import { expect, test } from 'vitest'
import { jsonText } from './json-text.js'

test('writes what JSON.stringify writes, and a bigint as its digits, as lossless-json does', () => {
  const values: unknown[] = [
    null,
    true,
    0,
    -1.5e300,
    'tab\t"quote" é \u2028',
    [],
    {},
    [1, undefined, () => 1, 'x'],
    { id: 9007199254740993n, name: 'Rex', tags: [{ id: 1n }], skipped: undefined, nested: { deep: [null, false] } },
    { when: new Date(0) },
  ]
  for (const value of values) expect(jsonText(value), String(value)).toBe(stringify(value))
  expect(jsonText({ id: 9007199254740993n })).toBe('{"id":9007199254740993}')
})
