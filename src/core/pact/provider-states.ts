import type { OrderStatus } from '../glossary.js'
import type { Int64Key } from '../int64.js'
import type { PactProviderState } from './pact-document.js'

/**
 * What an answer depended on when its request arrived, as the journal keeps it
 * for a pact: the order's status (or `absent`) for a cancel, and whether a
 * list sent each order's status. The key's refusal shows in the 401 itself.
 */
export type Given = OrderStatus | 'absent' | 'status-exposed'

/** Pact's state-change request: `POST /__sim/provider-states` takes it as its body. */
export interface ProviderStateChange {
  /** A provider state's name: `order 1 is pending`, `order 5 is shipped`, `order 9 does not exist`, `the key is not accepted`. */
  state: string
  /** Pact's params of the state; `id`, when given, must be the id the name says. */
  params?: Record<string, unknown>
  /** Default `"setup"`. */
  action?: 'setup' | 'teardown'
}

/** The provider state of a 401: the key's refusal. */
export const KEY_NOT_ACCEPTED = 'the key is not accepted'

/** The JSON of an int64 id in a state's params: a number, exact beyond 2^53 as a bigint. */
function idParam(id: Int64Key): number | bigint {
  const asNumber = Number(id)
  return Number.isSafeInteger(asNumber) ? asNumber : BigInt(id)
}

/** The provider state of a request the service's rules answered, or undefined when its answer depended on none. */
export function providerStateOf(status: number, orderId: Int64Key | null, given: Given | null): PactProviderState | undefined {
  if (status === 401) return { name: KEY_NOT_ACCEPTED }
  if (orderId === null || given === null || given === 'status-exposed') return undefined
  const name = given === 'absent' ? `order ${orderId} does not exist` : `order ${orderId} is ${given}`
  return { name, params: { id: idParam(orderId) } }
}
