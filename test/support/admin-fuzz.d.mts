import type fc from 'fast-check'

/** See admin-fuzz.mjs: random admin and order API calls, from the admin OpenAPI document. */
export const KEY: string

export interface FuzzCall {
  kind: 'admin' | 'api'
  /** The admin operation the method and path name, if any (admin calls only). */
  operationId?: string
  method: string
  /** The path and query, such as /__sim/orders/1 or /v1/store/orders. */
  path: string
  /** The text put in the route's path parameter, and the query (admin calls only). */
  param?: string
  query?: string
  /** The body as sent: JSON, truncated JSON, other text, or none. */
  body: string | undefined
  /** The X-Sim-Session header, or none. */
  session: string | undefined
  authorization?: string | undefined
}

export interface AdminRoute {
  method: string
  path: string
  operationId: string
  hasBody: boolean
}

export function adminRoutes(document: unknown): AdminRoute[]
export function calls(document: unknown, sessions?: string[]): fc.Arbitrary<FuzzCall>
export function send(origin: string, call: FuzzCall, timeoutMs?: number): Promise<{ status: number; text: string; error?: unknown }>
export function snapshot(origin: string, session: string | undefined): Promise<{ text: string; misbehaves: boolean }>
