import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { specOutcomesJson } from './document-outcomes.js'

test('spec-outcomes.json holds the outcomes the OpenAPI document gives (else: npm run build && npm run build:spec-outcomes)', () => {
  expect(readFileSync(new URL('./spec-outcomes.json', import.meta.url), 'utf8')).toBe(specOutcomesJson())
})
