import { checkTimes, parseRequestFilter, type RequestFilter, verifyReceived } from '../state/request-filter.js'
import type { SimulatorView } from './types.js'

function isView(value: unknown): value is SimulatorView {
  return typeof value === 'object' && value !== null && typeof (value as SimulatorView).requests === 'function' && 'journal' in value
}

/**
 * `expect(sim).toHaveReceived(filter, { times })` for any runner whose
 * `expect.extend` takes `{ pass, message }` (vitest, Jest): the same verdict
 * and the same failure message in each.
 */
export function toHaveReceived(
  isNot: boolean,
  received: unknown,
  filter?: RequestFilter,
  options: { times?: number } = {},
): { pass: boolean; message: () => string } {
  // Thrown, not failed: with .not a failed check would pass, whatever was handed in.
  if (!isView(received))
    throw new TypeError('toHaveReceived expects a simulator or one of its sessions (createSimulator(), sim.session(id)).')
  checkTimes(options.times)
  const matching = received.requests(filter)
  const { pass, message } = verifyReceived(matching.length, received.journal.entries(), parseRequestFilter(filter), options.times)
  return { pass, message: () => message(isNot) }
}

/** What `toHaveReceived` adds to a runner's assertions. */
export interface ReceivedMatchers<R = unknown> {
  /**
   * Passes when the simulator (or session) received a request matching `filter`:
   * at least once, or exactly `times`. The failure message lists what it received.
   * @example
   * expect(sim).toHaveReceived({ operation: 'cancelOrder', orderId: 5, status: 204 }, { times: 1 })
   */
  toHaveReceived(filter?: RequestFilter, options?: { times?: number }): R
}
