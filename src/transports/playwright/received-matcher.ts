import type { ExpectMatcherState, MatcherReturnType } from '@playwright/test'
import { checkTimes, parseRequestFilter, type RequestFilter, verifyReceived } from '../../core/state/request-filter.js'
import type { SimulatorFixture } from './simulator-fixture.js'

/** How often a pending `toHaveReceived` asks again. */
const POLL_MS = 100

function isFixture(value: unknown): value is SimulatorFixture {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as SimulatorFixture).requests === 'function' &&
    typeof (value as SimulatorFixture).session === 'string'
  )
}

/**
 * `await expect(sim).toHaveReceived(filter, { times })`: retried, as
 * Playwright's own assertions are, until it holds or the expect timeout
 * passes, since the app's request may still be on its way.
 */
export async function toHaveReceived(
  this: ExpectMatcherState,
  received: unknown,
  filter?: RequestFilter,
  options: { times?: number; timeout?: number } = {},
): Promise<MatcherReturnType> {
  if (!isFixture(received))
    return {
      pass: false,
      name: 'toHaveReceived',
      message: () => 'toHaveReceived expects the sim fixture: await expect(sim).toHaveReceived(...).',
    }
  checkTimes(options.times)
  const deadline = Date.now() + (options.timeout ?? this.timeout)
  for (;;) {
    // Asked first: a bad filter fails here with the simulator's own message.
    const matching = await received.requests(filter)
    const verdict = verifyReceived(matching.length, await received.requests(), parseRequestFilter(filter), options.times)
    if (verdict.pass !== this.isNot || Date.now() >= deadline)
      return { pass: verdict.pass, name: 'toHaveReceived', message: () => verdict.message(this.isNot) }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
}
