// Reads the service's documented outcomes from its OpenAPI document: what `npm run build:spec-outcomes` writes
// to spec-outcomes.json, and what spec-outcomes.test.ts holds that table to.
import { openApiDocument } from '../../contract/openapi-document.js'
import { ErrorCode } from '../error-codes.js'
import type { OperationId } from '../operations/registry.js'
import { type DeprecatedOperation, type Outcome, outcomeId } from './outcomes.js'

interface DocumentedResponse {
  $ref?: string
  content?: Record<string, { schema?: { type?: string; $ref?: string }; examples?: Record<string, { value?: { code?: unknown } }> }>
}
type DocumentedOperation = { operationId: string; deprecated?: boolean; responses: Record<string, DocumentedResponse> }

const document = openApiDocument as unknown as {
  paths: Record<string, Record<string, DocumentedOperation>>
  components: { responses: Record<string, DocumentedResponse> }
}

const KNOWN_CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode))

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
    const unknown = codes.find((code) => !KNOWN_CODES.has(String(code)))
    if (unknown !== undefined)
      throw new Error(`${operation} ${status}: the OpenAPI document's example code ${String(unknown)} is none of ErrorCode's.`)
    return codes.map((code) => ({ id: outcomeId(operation, status, String(code)), operation, status, code: String(code) }))
  }
  const success = { id: outcomeId(operation, status, null), operation, status, code: null }
  if (body?.schema?.type !== 'array') return [success]
  return [success, { ...success, id: outcomeId(operation, status, null, true) }]
}

/** Every documented outcome of the OpenAPI document, in its order, and the deprecated operations. */
function documentOutcomes(): { outcomes: Outcome[]; deprecated: DeprecatedOperation[] } {
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

/** The table `npm run build:spec-outcomes` writes to spec-outcomes.json: one outcome a line, for a readable diff. */
export function specOutcomesJson(): string {
  const { outcomes, deprecated } = documentOutcomes()
  const lines = (list: readonly object[]) => list.map((entry) => `    ${JSON.stringify(entry)}`).join(',\n')
  return `{\n  "outcomes": [\n${lines(outcomes)}\n  ],\n  "deprecated": [\n${lines(deprecated)}\n  ]\n}\n`
}
