import { createFaultList, type FaultInput } from './faults.js'
import { drawDelay, type LatencyRanges } from './latency.js'
import { createRateLimiter, type RateLimit } from './rate-limit.js'
import type { OperationId } from '../operations/registry.js'
import { systemTime } from '../time-source.js'

/**
 * Misbehaviour on purpose, for testing a client's failure paths: latency,
 * faults and rate limits. All off by default; each state has its own.
 * Inputs are checked by the parsers beside them before they get here.
 */
export type Controls = ReturnType<typeof createControls>

/** Creates the controls of one state, all off; `now` (the simulator's time source) times the rate-limit windows. `random` is injectable for tests. */
export function createControls(random: () => number = Math.random, now: () => number = systemTime.now) {
  let latency: LatencyRanges = {}
  const faults = createFaultList()
  let limit: RateLimit | null = null
  let limiter: ReturnType<typeof createRateLimiter> | null = null
  return {
    /** The delay to wait before answering this operation, in ms. */
    delayFor: (operation: OperationId) => drawDelay(latency, operation, random),
    setLatency(settings: LatencyRanges) {
      latency = { ...settings }
    },
    /** The ranges in force, or null with none (like `rateLimit()`). */
    latency: () => (Object.keys(latency).length === 0 ? null : { ...latency }),
    /** Adds a fault; it fires before the key is checked, like a real outage. Throws a `ValidationError` past `MAX_FAULTS`. */
    addFault: (input: FaultInput) => faults.add(input),
    faults: () => faults.list(),
    removeFault: (id: number) => faults.remove(id),
    clearFaults: () => faults.clear(),
    /** The fault that fires for this request, if any, counted down. */
    takeFault: (operation: OperationId, orderId: string | null) => faults.take(operation, orderId, random),
    setRateLimit(next: RateLimit | null) {
      limit = next
      limiter = next === null ? null : createRateLimiter(next, now)
    },
    rateLimit: () => limit,
    /** The RateLimit headers of one more request of this key (undefined with no limit set); throws the 429 past the budget. */
    consume: (token: string, accepted: boolean) => limiter?.consume(token, accepted),
  }
}
