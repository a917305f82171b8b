import type { Int64 } from '../glossary.js'
import { int64Value, type Int64Key } from '../int64.js'
import { createSchedule } from './schedule.js'
import type { OrderRecord, OrderStore } from '../state/order-store.js'
import type { LifecycleRule } from './lifecycle-rule.js'
import type { TimeSource, TimerHandle } from '../time-source.js'

/** A transition still to come. */
export interface PendingTransition {
  orderId: Int64
  status: 'shipped'
  /** The simulated time it falls due (ISO 8601). */
  at: string
}

/** The simulated clock of one state, and what it will do. */
export interface ClockState {
  /** The simulated time (ISO 8601): the real time plus every advance since the last load or reset. */
  now: string
  /** How far the clock was advanced since the last load or reset, in ms. */
  advancedMs: number
  /** The delay before a pending order ships (ms), or null when orders never ship on their own. */
  lifecycle: LifecycleRule | null
  /** The transitions still to come, soonest first. */
  pending: PendingTransition[]
}

export type OrderLifecycle = ReturnType<typeof createOrderLifecycle>

/** The longest a timer may wait (about 24.8 days); a lifecycle is at most a day, so this only guards. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** mulberry32: a small seeded generator, so that drawn delays repeat run after run. */
function seededRandom(seed: number): () => number {
  let state = ((seed % 2 ** 32) ^ Math.floor(seed / 2 ** 32)) >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
  }
}

/** One timer of `time` that never keeps a process alive, armed for one moment at a time. */
function oneTimer(time: TimeSource, run: () => void): { arm(at: number, inMs: number): void; disarm(): void } {
  let timer: TimerHandle | undefined
  let armedFor: number | undefined
  const disarm = () => {
    if (timer !== undefined) time.clearTimeout(timer)
    timer = undefined
    armedFor = undefined
  }
  return {
    arm(at, inMs) {
      if (armedFor === at && timer !== undefined) return
      disarm()
      armedFor = at
      timer = time.setTimeout(
        () => {
          timer = undefined
          armedFor = undefined
          run()
        },
        Math.min(MAX_TIMER_MS, Math.max(0, inMs)),
      )
      // Node's timers have unref; a browser's (numbers) and a test clock's keep nothing alive anyway.
      ;(timer as { unref?: () => void } | null)?.unref?.()
    },
    disarm,
  }
}

/**
 * Orders that move on their own: each pending order ships once its delay has
 * passed on a simulated clock (real time, read from `time`, plus advances).
 * One unref'd timer, for the soonest transition; a ship is a change of the
 * store, so a cancel and a ship of one order end one way only.
 */
export function createOrderLifecycle(store: OrderStore, report: (error: unknown) => void, time: TimeSource) {
  let rule: LifecycleRule | null = null
  let random = seededRandom(0)
  let offset = 0
  let stopped = false
  const schedule = createSchedule()
  const timer = oneTimer(time, () => applyDue().catch(report))

  const now = () => time.now() + offset
  const delay = (active: LifecycleRule) => active.min + Math.floor(random() * (active.max - active.min + 1))

  /** The timer, for the soonest transition. */
  function arm(): void {
    const soonest = schedule.soonest()
    if (stopped || soonest === undefined) timer.disarm()
    else timer.arm(soonest, soonest - now())
  }

  /** Ships every order whose time has come, soonest first, in one change of the store. */
  async function applyDue(): Promise<void> {
    const due = schedule.takeDue(now())
    arm()
    if (due.length === 0) return
    await store.change(async (orders) => {
      const shipped: OrderRecord[] = []
      for (const id of due) {
        const order = orders.find(id)
        // Cancelled (or changed) meanwhile: a cancelled order never ships.
        if (order?.status === 'pending') shipped.push({ ...order, status: 'shipped', complete: true })
      }
      await orders.put(shipped)
    })
  }

  return {
    /** Starts afresh from a load or a reset: the clock back to real time, each pending order of `orders` scheduled, in list order. */
    restart(next: LifecycleRule | null, seed: number, orders: readonly OrderRecord[]): void {
      rule = next
      random = seededRandom(seed)
      offset = 0
      schedule.clear()
      if (rule !== null) {
        const time = now()
        for (const order of orders) if (order.status === 'pending') schedule.set(order.id, time + delay(rule))
      }
      arm()
    },
    /** The order became pending (added, or set back to pending): it ships after the rule's delay from now. */
    schedule(id: Int64Key): void {
      if (rule === null) return
      schedule.set(id, now() + delay(rule))
      arm()
    },
    /** The order will not ship on its own (cancelled, shipped, removed). */
    unschedule(id: Int64Key): void {
      schedule.delete(id)
      arm()
    },
    /** Moves the clock on and applies every transition that falls due, in order; settles once the model holds them. */
    advance(ms: number): Promise<void> {
      offset += ms
      return applyDue()
    },
    clock(): ClockState {
      // A cancel does not tell the lifecycle; what is no longer pending will not ship, so it is not shown.
      const pendingNow = new Set(store.all().flatMap((order) => (order.status === 'pending' ? [order.id] : [])))
      return {
        now: new Date(now()).toISOString(),
        advancedMs: offset,
        lifecycle: rule === null ? null : { ...rule },
        pending: schedule
          .entries()
          .flatMap(({ id, due }) =>
            pendingNow.has(id) ? [{ orderId: int64Value(id), status: 'shipped' as const, at: new Date(due).toISOString() }] : [],
          ),
      }
    },
    /** No timer from now on (a dropped session, a closed simulator); the clock still moves when advanced. */
    stop(): void {
      stopped = true
      timer.disarm()
    },
  }
}
