// Writes the documents made from the valibot schemas, once tsc has compiled them to dist/src:
// - dist/admin-openapi.json, the admin API's OpenAPI document made from the admin table: the package's
//   ./admin-openapi.json export (GET /__sim/openapi.json serves the same);
// - scenarios/scenario.schema.json, the JSON Schema of a scenario file, made from the schema the loader
//   checks with: the package ships the scenarios folder, and src/core/scenario/scenario-json-schema.test.ts
//   fails while the committed file is not what this writes.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const { adminOpenApiDocument } = await import(`${root}dist/src/core/admin/admin-document.js`)
const { scenarioJsonSchemaText } = await import(`${root}dist/src/core/scenario/scenario-json-schema.js`)
writeFileSync(`${root}dist/admin-openapi.json`, `${JSON.stringify(adminOpenApiDocument, null, 2)}\n`)
writeFileSync(`${root}scenarios/scenario.schema.json`, scenarioJsonSchemaText())
