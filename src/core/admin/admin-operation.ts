import type * as fields from './admin-fields.js'
import type * as admin from './admin-schemas.js'
import type * as pact from './pact-schemas.js'
import type * as scenario from './scenario-schemas.js'
import type { SimulatorCore, SimulatorView } from '../simulator/types.js'
import type { ScenarioSource } from './scenario-catalog.js'

type AdminMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
type Components = typeof admin & typeof pact & typeof scenario
/** The schemas an operation names: the document's components (admin-, pact- and scenario-schemas.ts) and fields (admin-fields.ts). */
export type Schemas = Components & typeof fields
/**
 * A schema by name, `Name[]` for an array of it: names, not the valibot schemas themselves, so that
 * the router, the client and the in-page panel load none of valibot; only the document reads them.
 */
export type SchemaRef = keyof Schemas | `${keyof Components}[]`

/** A header a documented answer carries: one of the document's shared ones, or its own. */
export type HeaderDoc = 'Location' | 'Retry-After' | 'ContentDisposition' | { description: string; pattern: string }

/** A documented answer: JSON when it has a `schema`, else the media types it may be (text), else no body. */
export interface AnswerDoc {
  description: string
  schema?: SchemaRef
  media?: readonly string[]
  headers?: Readonly<Record<string, HeaderDoc>>
}

/** An Error answer: the document's shared one by name (InvalidOrderId, OrderNotFound, NotFound), or its own description (and headers). */
export type ErrorDoc = string | { description: string; headers: Record<string, HeaderDoc> }

/** A query field or path parameter: its schema, and what the document says of it. */
export interface FieldDoc {
  schema: SchemaRef
  description?: string
  required?: boolean
}

/** What a handler gets: the state it acts on (the X-Sim-Session's, or the default one) and the request's parts. */
export interface AdminInput {
  view: SimulatorView
  sim: SimulatorCore
  scenarios: ScenarioSource
  /** The path's parameters, as sent (percent-decoded). */
  params: Readonly<Record<string, string>>
  query: Readonly<Record<string, string>>
  /** The body's JSON value, exact (an int64 beyond 2^53 is a bigint); undefined for none. */
  body: unknown
}

/**
 * One admin operation: what the document, the router, the 405s, `GET /__sim`
 * and the client know of it, and (`run`) what it does. An operation without
 * `run` is answered by the transport itself (a page, the event stream).
 */
export interface AdminOperation {
  method: AdminMethod
  /** Under /__sim, with `{name}` parameters as the document writes them. */
  path: string
  tag: string
  summary: string
  description?: string
  /** A page or its files: for a browser, without the token, answered 403 and default only. */
  page?: true
  /** For probes: answered before the Host check, without the token, also with the admin API off (no session, no 400, 401 or 403). */
  probe?: true
  /** Another protocol's endpoint (MCP's JSON-RPC), answered by the transport: no call of the admin client, no tool. */
  protocol?: true
  params?: Readonly<Record<string, FieldDoc | 'OrderId' | 'StaticFile'>>
  query?: Readonly<Record<string, FieldDoc>>
  body?: { schema: SchemaRef; required: boolean; hint?: string }
  /** The success: its status and what it carries. */
  status: number
  answer: AnswerDoc
  /** Other answers that are no Error (a redirect). */
  others?: Readonly<Record<number, AnswerDoc>>
  /** Error answers besides those every call has (400, 401, 403, 413 with a body, default); a 400 here replaces the shared one. */
  errors?: Readonly<Partial<Record<400 | 404 | 409 | 503, ErrorDoc>>>
  run?: (input: AdminInput) => unknown
  /** The success's status when `status` is not always it (`others` documents the rest), from what `run` gave. */
  statusOf?: (value: never) => number
  /** Headers of the success, from what `run` gave. */
  headers?: (value: never) => Record<string, string>
  /** The success's JSON text, when it is not `stringifyExactJson` of what `run` gave (a pact, byte for byte as in process). */
  text?: (value: never) => string
}

/** Declares an operation, keeping its literal types (method, path, schemas) for the client. */
export const operation = <const O extends AdminOperation>(declared: O): O => declared
