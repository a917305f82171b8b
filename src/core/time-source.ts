/**
 * Where the core reads the time and sets its timers: session idle times, rate-limit windows, latency.
 * Tests pass their own and advance it instead of sleeping. It is not the simulated clock users move
 * (`/__sim/clock`), which dates orders; this one is the machine's time the simulator runs in.
 */
export interface TimeSource {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number
  /** Calls `callback` after `ms`; the handle goes to `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): TimerHandle
  clearTimeout(handle: TimerHandle): void
}

/** Opaque: what `setTimeout` gave. */
export type TimerHandle = unknown

/** The machine's time and timers. */
export const systemTime: TimeSource = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as Parameters<typeof clearTimeout>[0]),
}
