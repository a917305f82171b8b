import { invalidRequest } from '../api-error.js'
import { OPERATIONS, type OperationId } from './registry.js'

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
  // Each operation lists the statuses its OpenAPI entry documents (operations.test.ts holds them to it).
  const documented: readonly number[] = OPERATIONS.find(({ id }) => id === operation)?.statuses ?? []
  if (!documented.includes(status)) {
    throw invalidRequest(
      `Prefer: code=${status} is not a documented response of ${operation}; the documented ones are ${documented.join(', ')}.`,
    )
  }
  return status
}
