import openApiDocument from '../../contract/openapi.json' with { type: 'json' }
import { invalidRequest } from '../api-error.js'
import { OPERATIONS, type OperationId } from './registry.js'

type Paths = Record<string, Record<string, { responses: Record<string, unknown> }>>

/** The statuses the contract documents for each operation (not `default`), read once from the OpenAPI document. */
const DOCUMENTED_STATUSES = Object.fromEntries(
  OPERATIONS.map(({ id, path, method }) => {
    const responses = (openApiDocument.paths as unknown as Paths)[path]?.[method.toLowerCase()]?.responses ?? {}
    return [
      id,
      Object.keys(responses)
        .filter((key) => /^\d{3}$/.test(key))
        .map(Number),
    ]
  }),
) as unknown as Readonly<Record<OperationId, readonly number[]>>

/**
 * The status a request asks for with `Prefer: code=409` (the header Prism
 * users know; `header` is the Prefer value, null when absent), or undefined.
 * Throws a 400 `ApiError` for a code the contract does not document for this
 * operation.
 */
export function preferredStatus(header: string | null, operation: OperationId): number | undefined {
  if (header === null) return undefined
  const match = /(?:^|[,;\s])code\s*=\s*"?(\d{3})"?/i.exec(header)
  if (match === null) return undefined
  const status = Number(match[1])
  const documented = DOCUMENTED_STATUSES[operation]
  if (!documented.includes(status)) {
    throw invalidRequest(
      `Prefer: code=${status} is not a documented response of ${operation}; the documented ones are ${documented.join(', ')}.`,
    )
  }
  return status
}
