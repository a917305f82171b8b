// The service's documented outcomes, read from the OpenAPI document: one per success status, one per Error code a
// status's examples name, and an `.empty` one for a list. What coverage counts against (docs/coverage.md).
import { openApiDocument } from '../../contract/openapi-document.js'
import type { OperationId } from '../operations/registry.js'

/** One documented outcome of an operation: `listOrders.200`, `cancelOrder.409.order_already_shipped`. */
export interface Outcome {
  id: string
  operation: OperationId
  status: number
  /** The Error body's code; null for a success. */
  code: string | null
}

/** A deprecated operation, as coverage warns of its calls. */
export interface DeprecatedOperation {
  operation: OperationId
  method: string
  path: string
}

/** An outcome's name: `<operationId>.<status>`, then `.<code>` when it has one, then `.empty` for an empty list. */
export function outcomeId(operation: string, status: number, code: string | null, empty = false): string {
  return `${operation}.${status}${code === null ? '' : `.${code}`}${empty ? '.empty' : ''}`
}

interface DocumentedResponse {
  $ref?: string
  content?: Record<string, { schema?: { type?: string; $ref?: string }; examples?: Record<string, { value?: { code?: unknown } }> }>
}
type DocumentedOperation = { operationId: string; deprecated?: boolean; responses: Record<string, DocumentedResponse> }

const document = openApiDocument as unknown as {
  paths: Record<string, Record<string, DocumentedOperation>>
  components: { responses: Record<string, DocumentedResponse> }
}

/** A response as written, its `$ref` to the shared responses followed. */
function resolved(response: DocumentedResponse): DocumentedResponse {
  if (response.$ref === undefined) return response
  const name = response.$ref.replace('#/components/responses/', '')
  const shared = document.components.responses[name]
  if (shared === undefined) throw new Error(`The OpenAPI document has no response ${response.$ref}.`)
  return shared
}

/** The outcomes of one documented status: its Error codes (from the named examples), else the success, and an empty list. */
function outcomesOf(operation: OperationId, status: number, response: DocumentedResponse): Outcome[] {
  const body = response.content?.['application/json']
  if (body?.schema?.$ref === '#/components/schemas/Error') {
    const codes = Object.values(body.examples ?? {}).map((example) => example.value?.code)
    if (codes.length === 0)
      throw new Error(`${operation} ${status}: an Error answer of the OpenAPI document names no code in its examples.`)
    return codes.map((code) => ({ id: outcomeId(operation, status, String(code)), operation, status, code: String(code) }))
  }
  const success = { id: outcomeId(operation, status, null), operation, status, code: null }
  if (body?.schema?.type !== 'array') return [success]
  return [success, { ...success, id: outcomeId(operation, status, null, true) }]
}

function readOutcomes(): { outcomes: readonly Outcome[]; deprecated: readonly DeprecatedOperation[] } {
  const outcomes: Outcome[] = []
  const deprecated: DeprecatedOperation[] = []
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, documented] of Object.entries(methods)) {
      const operation = documented.operationId as OperationId
      if (documented.deprecated === true) deprecated.push({ operation, method: method.toUpperCase(), path })
      for (const [status, response] of Object.entries(documented.responses)) {
        // `default` is any other failure (a 500): no documented outcome of the service.
        if (/^\d{3}$/.test(status)) outcomes.push(...outcomesOf(operation, Number(status), resolved(response)))
      }
    }
  }
  return { outcomes, deprecated }
}

/** Every documented outcome, in the document's order, and the deprecated operations. */
export const SPEC_OUTCOMES = readOutcomes()
