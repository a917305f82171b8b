import type { AfterCancel, DeprecationDates } from '../glossary.js'
import type { Int64Key } from '../int64.js'
import { ApiError } from '../api-error.js'
import { unauthorized } from '../bearer-auth.js'
import type { Reply } from '../reply.js'
import type { OrderStore } from '../state/order-store.js'

/** What an operation reads of the state a request acts on (the simulator's own or a session's). */
export interface OperationState {
  store: OrderStore
  settings(): {
    acceptedKeys: ReadonlySet<string>
    exposeStatus: boolean
    afterCancel: AfterCancel
    /** JSON bodies of the scenario's pets, by petId. */
    petBodies: ReadonlyMap<string, string>
    /** The dates the pets operation announces in this state; the simulator's (`OperationConfig`) when absent. */
    deprecation?: DeprecationDates
  }
  /** The last list body listOrders made, and what it was made from. */
  listCache?: { version: number; exposeStatus: boolean; body: Uint8Array }
  /**
   * A session's: takes (above 0) or gives back (below 0) bytes of the bound
   * all sessions share; taking throws past it. Absent for the simulator's own state.
   */
  charge?: (bytes: number) => void
}

/**
 * One call of an operation, its key already accepted.
 * @public Named in the declarations emitted for the operations.
 */
export interface OperationCall {
  /** The decoded path parameter, or "" when the path has none. */
  param: string
  /** The order the call acts on (a valid int64 path id), else null. */
  orderId: Int64Key | null
  state: OperationState
}

/** What the simulator's options say of every operation. */
export interface OperationConfig {
  deprecation: DeprecationDates
}

/**
 * One operation of the specification, whole: where it lives, its rule, the
 * answers `Prefer: code=` may ask of it and the headers it always sends.
 */
export interface OperationDefinition<Id extends string = string> {
  /** The OpenAPI operationId. */
  id: Id
  method: 'GET' | 'DELETE'
  /** The path under the base, as the OpenAPI document writes it. */
  path: `/${string}`
  /** The statuses the OpenAPI document gives this operation (not `default`): what `Prefer: code=` may ask for. */
  statuses: readonly number[]
  /** The order a call acts on, read from the path parameter: for faults and the journal. */
  orderIdOf?(param: string): Int64Key | null
  /** Headers every answer carries, errors included. */
  headers?(config: OperationConfig): Readonly<Record<string, string>>
  answer(call: OperationCall): Reply | Promise<Reply>
  /** The documented answer for a status asked for with `Prefer: code=`, with no change of state. */
  preferred(status: number, call: OperationCall): Reply
}

export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Type': 'application/json' })

export function noContent(): Reply {
  return { status: 204, headers: {}, body: null }
}

/** The error a rule throws, as `Prefer: code=` asks for it: the same message, marked as asked for. */
export function asRequested(error: ApiError): ApiError {
  const message = `${error.message.replace(/\.$/, '')} (answered on request: Prefer: code=${error.status}).`
  return new ApiError(error.status, error.code, message, error.headers)
}

/** The 401 every operation documents, as `Prefer: code=401` asks for it. */
export function preferredUnauthorized(): ApiError {
  return asRequested(unauthorized('Invalid API key.'))
}
