import { createFaultList, type Fault, type FaultInput } from './faults.js'
import { drawDelay, type LatencyRanges, parseLatencySettings } from './latency.js'
import { createRateLimiter, parseRateLimit, type RateLimit } from './rate-limit.js'
import type { OperationId } from '../operations/registry.js'
import { systemTime } from '../time-source.js'

/** What a snapshot keeps of a state's controls; the rate-limit windows start afresh on restore. */
export interface ControlsSnapshot {
  latency: LatencyRanges | null
  /** With their ids and what remains of them; an order id is a number or a decimal string, never a bigint. */
  faults: Fault[]
  nextFaultId: number
  rateLimit: RateLimit | null
}

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
  let revision = 0
  const setRateLimit = (next: RateLimit | null) => {
    limit = next
    limiter = next === null ? null : createRateLimiter(next, now)
    revision++
  }
  return {
    /** The delay to wait before answering this operation, in ms. */
    delayFor: (operation: OperationId) => drawDelay(latency, operation, random),
    setLatency(settings: LatencyRanges) {
      latency = { ...settings }
      revision++
    },
    /** The ranges in force, or null with none (like `rateLimit()`). */
    latency: () => (Object.keys(latency).length === 0 ? null : { ...latency }),
    /** Adds a fault; it fires before the key is checked, like a real outage. Throws a `ValidationError` past `MAX_FAULTS`. */
    addFault(input: FaultInput) {
      const fault = faults.add(input)
      revision++
      return fault
    },
    faults: () => faults.list(),
    removeFault(id: number) {
      const removed = faults.remove(id)
      if (removed) revision++
      return removed
    },
    clearFaults() {
      if (faults.list().length > 0) revision++
      faults.clear()
    },
    /** The fault that fires for this request, if any, counted down. */
    takeFault(operation: OperationId, orderId: string | null) {
      const fault = faults.take(operation, orderId, random)
      // Only a fault with `times` changes when it fires: one that fires always stays as it was.
      if (fault !== undefined && fault.remaining !== null) revision++
      return fault
    },
    setRateLimit,
    rateLimit: () => limit,
    /** The RateLimit headers of one more request of this key (undefined with no limit set); throws the 429 past the budget. */
    consume: (token: string, accepted: boolean) => limiter?.consume(token, accepted),
    /** Goes up with every change a snapshot keeps (a setter, a fault counted down); never on a read or a request. */
    revision: (): number => revision,
    snapshot: (): ControlsSnapshot => ({
      latency: Object.keys(latency).length === 0 ? null : structuredClone(latency),
      // A bigint order id (an exact admin body) as its decimal string, which matches the same requests.
      faults: faults.list().map((fault) => (typeof fault.orderId === 'bigint' ? { ...fault, orderId: String(fault.orderId) } : fault)),
      nextFaultId: faults.nextId(),
      rateLimit: limit === null ? null : { ...limit },
    }),
    /** Puts back controls a snapshot kept (checked by `controlsSnapshotSchema`), checked again whole before any changes. */
    restore(snapshot: ControlsSnapshot): void {
      const ranges = snapshot.latency === null ? {} : parseLatencySettings(snapshot.latency)
      const rateLimit = snapshot.rateLimit === null ? null : parseRateLimit(snapshot.rateLimit)
      faults.restore(snapshot.faults, snapshot.nextFaultId)
      latency = ranges
      setRateLimit(rateLimit)
    },
  }
}
