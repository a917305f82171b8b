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

/** What a snapshot keeps of a lifecycle: never the schedule (up to 100,000 entries), but how to make it again. */
export interface LifecycleSnapshot {
  rule: LifecycleRule | null
  /** The seed of the last restart. */
  seed: number
  /** The real time (ms since the epoch) of the last restart, from which its delays count. */
  startedAt: number
  advancedMs: number
  /** The state of the generator (mulberry32), a u32. */
  random: number
  /** The schedule's changes since the last restart, oldest first: an order's due time, or null when it was taken out. */
  changes: Array<[string, number | null]>
}

/** mulberry32: a small seeded generator, so that drawn delays repeat run after run; its state is a u32 a snapshot keeps. */
function seededRandom(seed: number) {
  let state = ((seed % 2 ** 32) ^ Math.floor(seed / 2 ** 32)) >>> 0
  return {
    next(): number {
      state = (state + 0x6d2b79f5) >>> 0
      let t = state
      t = Math.imul(t ^ (t >>> 15), t | 1)
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
      return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32
    },
    state: () => state,
    set(next: number): void {
      state = next >>> 0
    },
  }
}

/**
 * The schedule, changed through a log of what changed since the last restart (`started`), by order: replaying the
 * restart and then the log makes the schedule again. An order added since then and taken out leaves nothing, so
 * the log holds at most the restart's orders and those scheduled now.
 */
function loggedSchedule() {
  const schedule = createSchedule()
  const changes = new Map<Int64Key, { due: number | null; fromStart: boolean }>()
  let firstChange = 0
  /** Whether the restart had scheduled the order (still there, or replaced by a change). */
  const fromStart = (id: Int64Key) => changes.get(id)?.fromStart ?? (schedule.seqOf(id) ?? firstChange) < firstChange
  function set(id: Int64Key, due: number): void {
    const start = fromStart(id)
    schedule.set(id, due)
    // Last in the log, as the entry is last among its ties.
    changes.delete(id)
    changes.set(id, { due, fromStart: start })
  }
  /** Takes the order out; false when it had no transition (nothing changed). */
  function remove(id: Int64Key): boolean {
    if (schedule.seqOf(id) === undefined) return false
    const start = fromStart(id)
    schedule.delete(id)
    changes.delete(id)
    if (start) changes.set(id, { due: null, fromStart: true })
    return true
  }
  return {
    schedule,
    /** What follows is a change: the schedule so far is the restart's. */
    started(): void {
      changes.clear()
      firstChange = schedule.sequence()
    },
    set,
    delete: remove,
    changes: (): Array<[string, number | null]> => [...changes].map(([id, { due }]) => [id, due]),
    /** Makes the changes `changes()` gave again, after the same restart. */
    replay(log: readonly (readonly [Int64Key, number | null])[]): void {
      for (const [id, due] of log) {
        if (due === null) remove(id)
        else set(id, due)
      }
    },
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

/** Ships each of `due` still pending, in one change of the store. */
async function ship(store: OrderStore, due: readonly Int64Key[]): Promise<void> {
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

/** The transitions of `entries` whose order is pending now. */
function pendingOf(store: OrderStore, entries: readonly { id: Int64Key; due: number }[]): PendingTransition[] {
  // A cancel does not tell the lifecycle; what is no longer pending will not ship, so it is not shown.
  const pendingNow = new Set(store.all().flatMap((order) => (order.status === 'pending' ? [order.id] : [])))
  return entries.flatMap(({ id, due }) =>
    pendingNow.has(id) ? [{ orderId: int64Value(id), status: 'shipped' as const, at: new Date(due).toISOString() }] : [],
  )
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
  let start = { seed: 0, at: time.now() } // the last restart's seed and real time
  let offset = 0
  let stopped = false
  let revision = 0
  const log = loggedSchedule()
  const { schedule } = log
  const timer = oneTimer(time, () => applyDue().catch(report))

  const now = () => time.now() + offset
  const delay = (active: LifecycleRule) => active.min + Math.floor(random.next() * (active.max - active.min + 1))

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
    if (due.length > 0) await ship(store, due)
  }

  /**
   * Starts afresh from a load or a reset: the clock back to real time, each pending order of `orders` scheduled,
   * in list order, its delay counted from `started` (now; a restore gives the first start's).
   */
  function restart(next: LifecycleRule | null, nextSeed: number, orders: readonly OrderRecord[], started: number = time.now()): void {
    rule = next
    start = { seed: nextSeed, at: started }
    random = seededRandom(nextSeed)
    offset = 0
    schedule.clear()
    if (rule !== null) for (const order of orders) if (order.status === 'pending') schedule.set(order.id, started + delay(rule))
    log.started()
    revision++
    arm()
  }

  return {
    restart,
    /** The order became pending (added, or set back to pending): it ships after the rule's delay from now. */
    schedule(id: Int64Key): void {
      if (rule === null) return
      log.set(id, now() + delay(rule))
      revision++
      arm()
    },
    /** The order will not ship on its own (cancelled, shipped, removed). */
    unschedule(id: Int64Key): void {
      if (!log.delete(id)) return
      revision++
      arm()
    },
    /** Moves the clock on and applies every transition that falls due, in order; settles once the model holds them. */
    advance(ms: number): Promise<void> {
      offset += ms
      if (ms !== 0) revision++
      return applyDue()
    },
    /** Goes up with every change a snapshot keeps (a restart, a schedule change, an advance); never on a read. */
    revision: (): number => revision,
    snapshot: (): LifecycleSnapshot => ({
      rule: rule === null ? null : { min: rule.min, max: rule.max },
      seed: start.seed,
      startedAt: start.at,
      advancedMs: offset,
      random: random.state(),
      changes: log.changes(),
    }),
    /**
     * Makes the schedule again from a snapshot (checked by `lifecycleSnapshotSchema`) and the restart's `orders`:
     * orders that fell due while no process ran (a server down) ship at once, as the timer then fires at 0.
     */
    restore(snapshot: LifecycleSnapshot, orders: readonly OrderRecord[]): void {
      restart(snapshot.rule, snapshot.seed, orders, snapshot.startedAt)
      log.replay(snapshot.changes)
      random.set(snapshot.random)
      offset = snapshot.advancedMs
      arm()
    },
    clock: (): ClockState => ({
      now: new Date(now()).toISOString(),
      advancedMs: offset,
      lifecycle: rule === null ? null : { ...rule },
      pending: pendingOf(store, schedule.entries()),
    }),
    /** No timer from now on (a dropped session, a closed simulator); the clock still moves when advanced. */
    stop(): void {
      stopped = true
      timer.disarm()
    },
  }
}
