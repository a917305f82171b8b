// The admin API's query fields and path parameters, and the answer of GET /__sim/openapi.json: written in
// the operations that take them (admin-document.ts), where the components (admin-schemas.ts) are referred to.
import * as v from 'valibot'

/** An integer in a query or a path, as text; its JSON Schema says which. */
const integer = (openapi: Record<string, unknown>) => v.pipe(v.string(), v.metadata({ openapi: { type: 'integer', ...openapi } }))

/** Any text: a scenario's name in a path (one the list names), a description in a query. */
export const Text = v.string()
export const RequestMethod = v.pipe(v.string(), v.regex(/^[A-Za-z]{1,20}$/))
export const RequestOrderId = integer({ format: 'int64' })
export const RequestStatus = integer({ minimum: 0, maximum: 599 })
export const FaultId = integer({ minimum: 1 })
export const AdminDocument = v.pipe(
  v.looseObject({
    openapi: v.pipe(v.string(), v.regex(/^3\.1\.[0-9]+$/)),
    info: v.looseObject({ title: v.string(), version: v.string() }),
  }),
  v.metadata({
    openapi: {
      type: 'object',
      required: ['openapi', 'info', 'paths'],
      properties: {
        openapi: { type: 'string', pattern: '^3\\.1\\.[0-9]+$' },
        info: { type: 'object', required: ['title', 'version'] },
        paths: { type: 'object', required: ['/__sim/openapi.json'] },
      },
    },
  }),
)
