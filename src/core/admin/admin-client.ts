import type * as v from 'valibot'
import { parseExactJson, stringifyExactJson } from '../exact-json.js'
import { SESSION_HEADER } from '../simulator/sessions.js'
import type { AdminOperation } from './admin-operation.js'
import { ADMIN_OPERATIONS, type AdminOperations, type TransportOperationId } from './admin-table.js'

type Id = string | number | bigint
type PathParams<P> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParams<Rest> : never
type BodyOf<O> = O extends { body: { schema: infer S extends v.GenericSchema; required: infer R } }
  ? R extends true
    ? { body: v.InferInput<S> }
    : { body?: v.InferInput<S> | null }
  : unknown
type QueryOf<O> = O extends { query: infer Q } ? { query?: { [K in keyof Q]?: string | number | bigint } } : unknown
/** What a call takes: its path's parameters by name, its query and its body, each where the operation has one. */
type AdminInputOf<O> = { [K in PathParams<O extends { path: infer P } ? P : never>]: Id } & BodyOf<O> & QueryOf<O>
/** What a call gives: the success's JSON (an int64 beyond 2^53 as a bigint), nothing for a 204. */
type AdminOutputOf<O> = O extends { status: 204 }
  ? undefined
  : O extends { answer: { schema: infer S extends v.GenericSchema } }
    ? v.InferOutput<S>
    : unknown

type CallableId = Exclude<keyof AdminOperations, TransportOperationId>
type Call<O> =
  // biome-ignore lint/complexity/noBannedTypes: "an input that needs nothing" is what {} says here.
  {} extends AdminInputOf<O>
    ? (input?: AdminInputOf<O>) => Promise<AdminOutputOf<O>>
    : (input: AdminInputOf<O>) => Promise<AdminOutputOf<O>>

/** The admin API, one typed method per operation of the admin table: `await admin.addFault({ body: { operation: 'cancelOrder', kind: 'status' } })`. */
export type AdminClient = { [K in CallableId]: Call<AdminOperations[K]> }

/** A refused admin call: the Error body's status, code and message. */
export class AdminError extends Error {
  override name = 'AdminError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/** The parts of a call as a transport sends them. */
interface AdminRequest {
  operation: AdminOperation
  params: Record<string, string>
  query: Record<string, string>
  /** The JSON value, undefined for none. */
  body: unknown
}

/** Builds a client whose every call goes through `send`: over HTTP, or to the table's handlers in process. */
export function clientOf(send: (request: AdminRequest) => Promise<unknown>): AdminClient {
  const client: Record<string, (input?: Record<string, unknown>) => Promise<unknown>> = {}
  for (const [id, operation] of Object.entries(ADMIN_OPERATIONS) as [string, AdminOperation][]) {
    if (operation.run === undefined) continue
    const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string)
    client[id] = (input = {}) => {
      const query = Object.entries((input['query'] ?? {}) as Record<string, unknown>).filter(([, value]) => value !== undefined)
      return send({
        operation,
        params: Object.fromEntries(names.map((name) => [name, String(input[name])])),
        query: Object.fromEntries(query.map(([name, value]) => [name, String(value)])),
        body: input['body'],
      })
    }
  }
  return client as unknown as AdminClient
}

export interface AdminClientOptions {
  /** The admin token, when the server has one. */
  token?: string | undefined
  /** Act on this session (X-Sim-Session); without it, the default state. */
  session?: string | undefined
  /** Give up on a call after this long: a `TimeoutError` `DOMException`. */
  timeoutMs?: number | undefined
}

/**
 * The admin API of the simulator at `baseUrl` (its origin, or any URL on it),
 * typed from the admin table. A refusal throws an `AdminError` with the
 * server's message; an unreachable server, fetch's own `TypeError`.
 *
 * @example
 * const admin = adminClient('http://127.0.0.1:4010', { session: 'qa-7' })
 * await admin.reset({ body: { scenario: 'shipped' } })
 * const [order] = await admin.listAdminOrders()
 */
export function adminClient(baseUrl: string | URL, options: AdminClientOptions = {}): AdminClient {
  const origin = new URL(baseUrl).origin
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (options.session !== undefined && options.session !== '') headers[SESSION_HEADER] = options.session
  if (options.token !== undefined) headers['Authorization'] = `Bearer ${options.token}`
  return clientOf(async ({ operation, params, query, body }) => {
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
    const search = new URLSearchParams(query).toString()
    const response = await fetch(`${origin}/__sim${path}${search === '' ? '' : `?${search}`}`, {
      method: operation.method,
      headers,
      body: body === undefined ? null : stringifyExactJson(body),
      ...(options.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(options.timeoutMs) }),
    })
    const text = await response.text()
    if (!response.ok) throw refusal(response.status, text)
    return text === '' ? undefined : parseExactJson(text)
  })
}

/** The `AdminError` of a refused answer, from its Error body when it has one. */
function refusal(status: number, text: string): AdminError {
  try {
    const error = JSON.parse(text) as { code?: unknown; message?: unknown }
    if (typeof error.message === 'string') return new AdminError(status, String(error.code ?? ''), error.message)
  } catch {
    // Not an Error body: said by the status alone.
  }
  return new AdminError(status, '', `HTTP ${status}`)
}
