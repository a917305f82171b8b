import type { TimeSource, TimerHandle } from '../../src/core/time-source.js'

/** A time source a test moves by hand (`createSimulator({ time })`): nothing happens until it advances. */
interface TestTime extends TimeSource {
  /**
   * Moves the time on by `ms`, firing each timer that falls due on the way,
   * soonest first, at its own time; what each one started (promises) settles
   * before the next fires, as in a real event loop.
   */
  advance(ms: number): Promise<void>
  /** How many timers are set and not yet fired or cleared. */
  pending(): number
  /** Resolves once at least `count` timers are set: a request has reached its wait (latency, a hang). */
  untilPending(count?: number): Promise<void>
}

/** Once the promise jobs queued now have run: a turn of the real event loop. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve))

interface Timer {
  due: number
  /** Order of setting: timers due at the same time fire in the order they were set. */
  order: number
  callback: () => void
}

/** A test clock starting at `start` (ms since the epoch; default 2026-01-01T00:00:00Z). */
export function testTime(start = Date.UTC(2026, 0, 1)): TestTime {
  let now = start
  let made = 0
  const timers = new Map<number, Timer>()
  const waiters: { count: number; wake: () => void }[] = []

  const wakeWaiters = () => {
    for (const waiter of [...waiters]) {
      if (timers.size < waiter.count) continue
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.wake()
    }
  }
  /** The id of the timer to fire next, due by `until`, or undefined. */
  const nextDue = (until: number): number | undefined => {
    let found: [number, Timer] | undefined
    for (const entry of timers) {
      const [, timer] = entry
      if (timer.due > until) continue
      if (found === undefined || timer.due < found[1].due || (timer.due === found[1].due && timer.order < found[1].order)) found = entry
    }
    return found?.[0]
  }

  return {
    now: () => now,
    setTimeout(callback, ms) {
      const id = ++made
      timers.set(id, { due: now + Math.max(0, ms), order: id, callback })
      wakeWaiters()
      return id
    },
    clearTimeout(handle: TimerHandle) {
      timers.delete(handle as number)
    },
    async advance(ms) {
      const until = now + ms
      for (let id = nextDue(until); id !== undefined; id = nextDue(until)) {
        const timer = timers.get(id) as Timer
        timers.delete(id)
        now = Math.max(now, timer.due)
        timer.callback()
        await settled()
      }
      now = until
    },
    pending: () => timers.size,
    untilPending(count = 1) {
      return new Promise((resolve) => {
        waiters.push({ count, wake: resolve })
        wakeWaiters()
      })
    },
  }
}
