import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'

// ajv-formats is CommonJS: Node hands its exports object to a default import,
// while Vite may hand the function itself.
const addFormats: typeof addFormatsModule.default = typeof addFormatsModule === 'function' ? addFormatsModule : addFormatsModule.default

/** An ajv for JSON Schema 2020-12 (OpenAPI 3.1's dialect) with the `date-time` and `int64` formats. */
export function createAjv(options: { strict: boolean }): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: options.strict })
  addFormats(ajv)
  return ajv
}
