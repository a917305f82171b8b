import openApiDocument from './contract/openapi.json' with { type: 'json' }
import { ApiError } from './api-error.js'
import { ErrorCode } from './error-codes.js'
import type { OperationId } from './routes.js'

const PATHS: Record<OperationId, [path: string, method: string]> = {
  listOrders: ['/store/orders', 'get'],
  cancelOrder: ['/store/orders/{orderId}', 'delete'],
  getPetById: ['/pets/{petId}', 'get'],
}

/** The statuses the contract documents for an operation (not `default`), read once from the OpenAPI document. */
export const DOCUMENTED_STATUSES: Readonly<Record<OperationId, readonly number[]>> = Object.fromEntries(
  Object.entries(PATHS).map(([operation, [path, method]]) => {
    const paths = openApiDocument.paths as unknown as Record<string, Record<string, { responses: Record<string, unknown> }>>
    const responses = paths[path]?.[method]?.responses ?? {}
    return [operation, Object.keys(responses).filter((key) => /^\d{3}$/.test(key)).map(Number)]
  }),
) as unknown as Record<OperationId, readonly number[]>

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
    throw new ApiError(400, ErrorCode.InvalidRequest, `Prefer: code=${status} is not a documented response of ${operation}; the documented ones are ${documented.join(', ')}.`)
  }
  return status
}
