import document from './admin-openapi.json' with { type: 'json' }

/**
 * The admin API's own contract (everything under `/__sim`). Re-declared
 * rather than re-exported from the JSON, as `openApiDocument` is, so that the
 * emitted declarations spell its type out: a consumer needs no `resolveJsonModule`.
 */
export const adminOpenApiDocument = document
