// Writes the admin API's OpenAPI document, made from the admin table, to dist/admin-openapi.json:
// the package's ./admin-openapi.json export (GET /__sim/openapi.json serves the same).
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../', import.meta.url))
const { adminOpenApiDocument } = await import(`${root}dist/src/core/admin/admin-document.js`)
writeFileSync(`${root}dist/admin-openapi.json`, `${JSON.stringify(adminOpenApiDocument, null, 2)}\n`)
