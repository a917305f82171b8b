import { stringifyExactJson } from '../exact-json.js'
import type { AdminInput, AdminOperation } from './admin-operation.js'
import { CONTROL_OPERATIONS } from './control-operations.js'
import { COVERAGE_OPERATIONS } from './coverage-operations.js'
import { DISCOVERY_OPERATIONS } from './discovery-operations.js'
import { ORDER_OPERATIONS } from './order-operations.js'
import { PACT_OPERATIONS } from './pact-operations.js'
import { SCENARIO_OPERATIONS } from './scenario-operations.js'
import { SESSION_OPERATIONS } from './session-operations.js'
import { STATE_OPERATIONS } from './state-operations.js'

/**
 * The admin API under /__sim, each operation once: the router, its 404s and
 * 405s, `GET /__sim`, `GET /__sim/openapi.json` and the admin client all
 * follow from it. A new operation is one entry in one of these groups.
 */
export const ADMIN_OPERATIONS = {
  ...DISCOVERY_OPERATIONS,
  ...SCENARIO_OPERATIONS,
  ...STATE_OPERATIONS,
  ...ORDER_OPERATIONS,
  ...CONTROL_OPERATIONS,
  ...SESSION_OPERATIONS,
  ...COVERAGE_OPERATIONS,
  ...PACT_OPERATIONS,
}

export type AdminOperations = typeof ADMIN_OPERATIONS
export type AdminOperationId = keyof AdminOperations
/** The operations the admin router answers itself (the event stream, MCP, this table's views): no `run`, no page, no probe. */
export type TransportOperationId = {
  [K in AdminOperationId]: AdminOperations[K] extends { run: unknown } | { page: true } | { probe: true } ? never : K
}[AdminOperationId]
/** What the admin client calls: every operation that answers JSON (or nothing), the pages and the event stream aside. */
export type ClientOperationId = {
  [K in AdminOperationId]: AdminOperations[K] extends { page: true } | { protocol: true } | { answer: { media: readonly string[] } }
    ? never
    : K
}[AdminOperationId]

/** Whether the admin client has a method for an operation (as `ClientOperationId`). */
export const isCallable = (operation: AdminOperation) =>
  operation.page !== true && operation.protocol !== true && operation.answer.media === undefined

/** An express-style path under the router (`/orders/:orderId`; `/` for /__sim itself). */
export const routePath = (path: string) => (path === '' ? '/' : path.replace(/\{(\w+)\}/g, ':$1'))

const patterns = (Object.values(ADMIN_OPERATIONS) as AdminOperation[])
  .filter((operation) => operation.page !== true)
  .map((operation) => ({
    method: operation.method,
    pattern: new RegExp(`^${routePath(operation.path).replace(/[.]/g, '\\.').replace(/:\w+/g, '[^/]+')}$`),
  }))

/**
 * The methods a path under /__sim takes, as a 405's Allow lists them; undefined for
 * an unknown path. The pages and their files are found by name: another method there is a 404.
 */
export function allowedMethods(path: string): string | undefined {
  const methods = patterns.filter(({ pattern }) => pattern.test(path)).map(({ method }) => method)
  return methods.length === 0 ? undefined : methods.join(', ')
}

/** An operation's answer, ready to send: the success's status, headers and JSON text (none for a 204). */
export interface AdminAnswer {
  status: number
  headers: Record<string, string>
  text: string
}

/** Runs an operation that has `run`; what it throws (an `ApiError` is a refusal) rejects. */
export async function answerOf(operation: AdminOperation, input: AdminInput): Promise<AdminAnswer> {
  const run = operation.run
  if (run === undefined) throw new TypeError(`${operation.method} /__sim${operation.path} is answered by the transport.`)
  const value = (await run(input)) as never
  if (operation.status === 204) return { status: 204, headers: {}, text: '' }
  const status = operation.statusOf?.(value) ?? operation.status
  return { status, headers: operation.headers?.(value) ?? {}, text: operation.text?.(value) ?? stringifyExactJson(value) }
}
