// A provider state named by Pact's state-change request, read into what the simulator sets up. Apart from
// provider-states.ts, which every recorded request uses: a page loads this only when a state is changed.
import type { OrderStatus } from '../glossary.js'
import { quote } from '../quote-value.js'
import { ValidationError } from '../validation-error.js'
import { parseInt64, type Int64Key } from '../int64.js'
import { KEY_NOT_ACCEPTED } from './provider-states.js'

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

const ORDER_STATE = /^order (-?[0-9]{1,20}) (?:is (pending|shipped|cancelled)|(does not exist))$/

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
