import type { OrderStatus } from '../glossary.js'
import { parseInt64, type Int64Key } from '../int64.js'
import { ValidationError } from '../validation-error.js'
import type { PactProviderState } from './pact-document.js'
import { quote } from '../quote-value.js'

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

/** The provider states a pact may name, as provider teams implement them on the real service. */
export const PROVIDER_STATES = [
  'order {id} is pending',
  'order {id} is shipped',
  'order {id} is cancelled',
  'order {id} does not exist',
  'the key is not accepted',
] as const

/** A provider state the simulator can be put in: an order's status or absence, or keys refused. */
export type ProviderStateGoal = { kind: 'order'; id: Int64Key; status: OrderStatus | 'absent' } | { kind: 'keys-refused' }

const KEY_NOT_ACCEPTED = 'the key is not accepted'
const ORDER_STATE = /^order (-?[0-9]{1,20}) (?:is (pending|shipped|cancelled)|(does not exist))$/

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

/**
 * Reads a provider state's name and params (Pact's state-change request); a
 * `ValidationError` naming `state` lists the known ones.
 */
export function parseProviderState(state: unknown, params: unknown): ProviderStateGoal {
  if (typeof state !== 'string')
    throw new ValidationError('state', `"state" must be the name of a provider state, one of: ${PROVIDER_STATES.join('; ')}.`)
  if (state === KEY_NOT_ACCEPTED) return { kind: 'keys-refused' }
  const match = ORDER_STATE.exec(state)
  const id = match === null ? null : parseInt64(match[1] ?? '')
  if (match === null || id === null)
    throw new ValidationError(
      'state',
      `Unknown provider state ${quote(state)}; the known ones are: ${PROVIDER_STATES.join('; ')} ({id} an int64).`,
    )
  const given =
    params !== undefined && params !== null && typeof params === 'object' ? (params as Record<string, unknown>)['id'] : undefined
  // Pact sends the id twice, in the name and in params: they must agree, or the provider would set up the wrong order.
  if (given !== undefined && String(given) !== id)
    throw new ValidationError('params', `params.id (${quote(given)}) is not the id the state names (${id}).`)
  return { kind: 'order', id, status: match[3] === undefined ? (match[2] as OrderStatus) : 'absent' }
}
