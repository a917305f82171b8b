import { parseProviderState } from '../pact/parse-provider-state.js'
import { ValidationError } from '../validation-error.js'
import type { SimulatorInstance } from './instance.js'
import { addOrder, removeOrder, updateOrder } from './order-edits.js'
import { quote } from '../quote-value.js'

/** The fields of an order a state adds, when the order it names does not exist: fixed, so a pact's run repeats. */
const ADDED_ORDER = { petId: 1, quantity: 1, shipDate: '2026-01-01T00:00:00.000Z' }

/**
 * Puts a state in a provider state (Pact's verifier calls this before each
 * interaction). An order state adds or changes that order only, and lifts a
 * key refusal left by an interaction before; `the key is not accepted` refuses
 * every key until a teardown or the next reset. A teardown lifts the refusal
 * and leaves the orders as the interaction left them: each setup says all
 * that its interaction needs. No state (`""`, what the verifier sends for
 * an interaction that names none) only lifts the refusal.
 */
export async function changeProviderState(instance: SimulatorInstance, change: unknown): Promise<void> {
  if (typeof change !== 'object' || change === null || Array.isArray(change))
    throw new ValidationError(
      'state',
      'The state change must be an object: {"state": name, "params"?: {...}, "action"?: "setup" | "teardown"}.',
    )
  const { state, params, action = 'setup' } = change as Record<string, unknown>
  if (action !== 'setup' && action !== 'teardown')
    throw new ValidationError('action', `"action" must be "setup" or "teardown", got ${quote(action)}.`)
  // Pact's verifier calls with no state ("") around an interaction that names none: it needs the keys accepted.
  const goal = state === '' ? undefined : parseProviderState(state, params)
  if (action === 'teardown' || goal?.kind !== 'keys-refused') instance.keysRefused = false
  if (action === 'teardown' || goal === undefined) return
  if (goal.kind === 'keys-refused') {
    instance.keysRefused = true
    return
  }
  const exists = instance.store.find(goal.id) !== undefined
  if (goal.status === 'absent') {
    if (exists) await removeOrder(instance, goal.id)
  } else if (exists) await updateOrder(instance, goal.id, { status: goal.status })
  else await addOrder(instance, { id: goal.id, status: goal.status, ...ADDED_ORDER, complete: goal.status === 'shipped' })
}
