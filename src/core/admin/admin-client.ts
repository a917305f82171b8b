import type * as v from 'valibot'
import { parseExactJson, stringifyExactJson } from '../exact-json.js'
import { SESSION_HEADER } from '../simulator/sessions.js'
import type { AdminOperation, SchemaRef, Schemas } from './admin-operation.js'
import { ADMIN_OPERATIONS, type AdminOperations, type ClientOperationId, isCallable } from './admin-table.js'

type Id = string | number | bigint
type Params<P> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | Params<Rest> : never
/** What a schema the table names reads (`In` true) or gives; `Name[]`, an array of it. */
type Shape<R, In> = R extends `${infer N extends keyof Schemas}[]`
  ? Shape<N, In>[]
  : R extends keyof Schemas
    ? In extends true
      ? v.InferInput<Schemas[R]>
      : v.InferOutput<Schemas[R]>
    : never
type BodyOf<O> = O extends { body: { schema: infer S extends SchemaRef; required: infer R } }
  ? R extends true
    ? { body: Shape<S, true> }
    : { body?: Shape<S, true> | null }
  : unknown
type QueryOf<O> = O extends { query: infer Q } ? { query?: { [K in keyof Q]?: Id } } : unknown
/** A call's input: its path's parameters by name, its query and its body, each where the operation has one. */
type InputOf<O> = { [K in Params<O extends { path: infer P } ? P : never>]: Id } & BodyOf<O> & QueryOf<O>
/** A call's answer: the success's JSON (an int64 beyond 2^53 as a bigint), nothing for a 204. */
type OutputOf<O> = O extends { answer: { schema: infer S extends SchemaRef } } ? Shape<S, false> : undefined
type Call<O> =
  // biome-ignore lint/complexity/noBannedTypes: "an input that needs nothing" is what {} says here.
  {} extends InputOf<O> ? (input?: InputOf<O>) => Promise<OutputOf<O>> : (input: InputOf<O>) => Promise<OutputOf<O>>

/** The admin API, a typed method per operation of the admin table: `await admin.addFault({ body: { operation: 'cancelOrder', kind: 'status' } })`. */
export type AdminClient = { [K in ClientOperationId]: Call<AdminOperations[K]> }

/** A refused admin call: the Error body's status, code and message (code '' when the answer had no Error body). */
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

type Fields = Record<string, string>
type Send = (call: { operation: AdminOperation; params: Fields; query: Fields; body: unknown }) => Promise<unknown>

const strings = (pairs: [string, unknown][]) => Object.fromEntries(pairs.map(([name, value]) => [name, String(value)]))

/** A client whose every call goes through `send`: over HTTP, or to the table's handlers in process. */
export function clientOf(send: Send): AdminClient {
  const client: Record<string, (input?: Record<string, unknown>) => Promise<unknown>> = {}
  for (const [id, operation] of Object.entries(ADMIN_OPERATIONS) as [string, AdminOperation][]) {
    if (!isCallable(operation)) continue
    const names = [...operation.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string)
    client[id] = (input = {}) => {
      const query = Object.entries((input['query'] ?? {}) as Record<string, unknown>).filter(([, value]) => value !== undefined)
      return send({ operation, params: strings(names.map((name) => [name, input[name]])), query: strings(query), body: input['body'] })
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
  return clientOf(httpSend(baseUrl, options))
}

/** Sends a call of the admin table over HTTP (what `adminClient` calls through); a refusal is an `AdminError`. */
export function httpSend(baseUrl: string | URL, options: AdminClientOptions): Send {
  const origin = new URL(baseUrl).origin
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (options.session !== undefined && options.session !== '') headers[SESSION_HEADER] = options.session
  if (options.token !== undefined) headers['Authorization'] = `Bearer ${options.token}`
  const signal = () => (options.timeoutMs === undefined ? null : AbortSignal.timeout(options.timeoutMs))
  return async ({ operation: { method, path }, params, query, body }) => {
    const search = new URLSearchParams(query).toString()
    const target = `${path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))}${search === '' ? '' : `?${search}`}`
    const sent = body === undefined ? null : stringifyExactJson(body)
    const response = await fetch(`${origin}/__sim${target}`, { method, headers, body: sent, signal: signal() })
    const text = await response.text()
    if (response.ok) return text === '' ? undefined : parseExactJson(text)
    let error: { code?: unknown; message?: unknown } = {}
    try {
      error = JSON.parse(text)
    } catch {
      // Not an Error body: said by the status alone.
    }
    if (typeof error.message === 'string') throw new AdminError(response.status, String(error.code ?? ''), error.message)
    throw new AdminError(response.status, '', `HTTP ${response.status}`)
  }
}
