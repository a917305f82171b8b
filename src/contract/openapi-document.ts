import document from './openapi.json' with { type: 'json' }

/**
 * The wire contract of the simulated service. Re-declared here rather than
 * re-exported from the JSON so that the emitted declarations spell its type
 * out: a consumer needs no `resolveJsonModule`.
 */
export const openApiDocument = document
