// The service's documented outcomes, as document-outcomes.ts reads them from the OpenAPI document: one per success
// status, one per Error code a status's examples name, and an `.empty` one for a list (docs/coverage.md).
import type { OperationId } from '../operations/registry.js'
import table from './spec-outcomes.json' with { type: 'json' }

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

/**
 * Every documented outcome, in the document's order, and the deprecated operations: the table
 * `npm run build:spec-outcomes` writes from the OpenAPI document (spec-outcomes.test.ts holds it to it),
 * so that a page loads a kilobyte of it, not the whole document.
 */
export const SPEC_OUTCOMES = table as { outcomes: readonly Outcome[]; deprecated: readonly DeprecatedOperation[] }
