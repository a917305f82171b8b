// `npm run build:spec-outcomes`: writes src/core/outcome-coverage/spec-outcomes.json, the service's documented outcomes as
// src/core/outcome-coverage/document-outcomes.ts reads them from the OpenAPI document. Coverage counts against this table, so
// a page loads it instead of the whole document. Run after `npm run build` whenever src/contract/openapi.json
// changes; src/core/outcome-coverage/spec-outcomes.test.ts fails until then.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const { specOutcomesJson } = await import(`${root}dist/src/core/outcome-coverage/document-outcomes.js`)
const path = `${root}src/core/outcome-coverage/spec-outcomes.json`
writeFileSync(path, specOutcomesJson())
console.log(`Wrote ${path}.`)
