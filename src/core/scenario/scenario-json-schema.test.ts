import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { scenarioJsonSchemaText } from './scenario-json-schema.js'

test('scenarios/scenario.schema.json is made from the schema the loader checks with', () => {
  const committed = readFileSync(new URL('../../../scenarios/scenario.schema.json', import.meta.url), 'utf8')
  expect(committed, 'it differs from src/core/scenario/scenario-schema.ts: npm run build writes it anew').toBe(scenarioJsonSchemaText())
})
