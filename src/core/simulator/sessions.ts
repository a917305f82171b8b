import { ApiError } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { quote } from '../quote-value.js'
import { ValidationError } from '../validation-error.js'
import type { ActiveScenario, SimulatorInstance } from './instance.js'
import { type CheckedOptions, SESSION_BYTES } from './options.js'
import { SESSION_HEADER, SESSION_ID } from './session-id.js'
import type { SessionInfo } from './types.js'

export { SESSION_HEADER }

/** How many dropped session ids are remembered, to tell a recreated session from a new one. */
const MAX_DROPPED_SESSIONS = 1000

/** A session's share of the bytes, kept so that ending it gives back what it took. */
interface Account {
  bytes: number
  /** Ended or expired: what a request still running makes of it is no longer counted. */
  closed: boolean
}

interface SessionEntry {
  instance: SimulatorInstance
  account: Account
  created: number
  lastUsed: number
  recreated: 'expired' | null
}

export interface Sessions {
  /**
   * The session `id`, made from `current()` when it does not exist, unless
   * `beforeCreate` throws. Throws a `ValidationError` for a bad id, and an
   * `ApiError` 503 `too_many_sessions` when a new one would pass a bound.
   */
  get(id: string, beforeCreate?: (active: ActiveScenario) => void): SimulatorInstance
  list(): SessionInfo[]
  end(id: string): boolean
  /** Whether a session with this id is live, without touching it. */
  has(id: string): boolean
  /** What the sessions hold in all, and the default state's recordings, in bytes, as counted against the bound. */
  bytes(): number
  /**
   * Charges the default state's recorded routes against the same bound: what the sessions may hold in
   * all (--max-session-memory) bounds every state's recordings. Throws past it; never closed.
   */
  chargeDefault: SessionCharge
  /** Stops the timers of every session. */
  close(): void
  /**
   * The sessions a snapshot writes, least recently used first: those idle longer than the idle time are
   * left out (the next request would drop them).
   */
  live(): { id: string; instance: SimulatorInstance; created: number }[]
  /**
   * Opens session `id` as a snapshot had it: created at `created`, used now (a fresh idle period).
   * `build` makes its state, told its charge; past a bound it throws as `get` does, and a session it
   * refuses holds nothing.
   */
  restore(id: string, created: number, build: (charge: SessionCharge) => SimulatorInstance): void
  /**
   * A number that moves whenever a session opens, ends or expires, or a state changes (`weigh`, summed
   * over the live sessions and those gone): what a saver polls. One loop, no copy.
   */
  revision(): number
}

/** How a session takes (bytes above 0) and gives back (below 0) bytes of the shared bound; taking throws past it. */
export type SessionCharge = (bytes: number) => void

/** Throws the `ValidationError` of a bad session id. */
function checkId(id: string): void {
  if (!SESSION_ID.test(id)) {
    throw new ValidationError(SESSION_HEADER, `Invalid session id ${quote(id)}: use 1 to 128 letters, digits and . _ : - characters.`)
  }
}

/** The 503 of a bound the sessions reached, with when to try again. */
function tooManySessions(message: string, retryAfterSeconds: number): ApiError {
  return new ApiError(503, ErrorCode.TooManySessions, message, { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) })
}

const HOW_TO_END = 'End sessions you no longer need (DELETE /__sim/sessions/{id}, or sim.endSession(id) in process)'

/** A session's charge against the bytes all sessions share: refused past `limit`, nothing counted once the session is gone. */
function boundedCharge(
  account: Account,
  pool: { used(): number; add(bytes: number): void; refuse(): ApiError; limit: number },
): SessionCharge {
  return (bytes) => {
    if (account.closed) return
    if (bytes > 0 && pool.used() + bytes > pool.limit) throw pool.refuse()
    const change = Math.max(bytes, -account.bytes)
    pool.add(change)
    account.bytes += change
  }
}

/**
 * Sessions by id, bounded in number and in bytes, dropped only when idle or
 * ended: a session in use is never dropped to make room (a colleague's state
 * would silently reset); a new one is refused with 503 instead. `now` reads
 * the simulator's time source, which times idle times (tests pass their own).
 */
export function createSessions(
  limits: Pick<CheckedOptions, 'maxSessions' | 'idleMs' | 'maxSessionBytes'>,
  current: () => ActiveScenario,
  create: (active: ActiveScenario, charge: SessionCharge) => SimulatorInstance,
  now: () => number,
  weigh: (instance: SimulatorInstance) => number = () => 0,
): Sessions {
  // Least recently used first, so the idle ones are at the front: no walk of them all.
  const sessions = new Map<string, SessionEntry>()
  // Ids of sessions dropped when idle lately (oldest first).
  const dropped = new Set<string>()
  let used = 0
  // Sessions opened, ended or expired, plus what the states gone weighed: so `revision()` only ever grows.
  let moves = 0

  function release(id: string, entry: SessionEntry): void {
    moves += 1 + weigh(entry.instance)
    sessions.delete(id)
    entry.instance.lifecycle.stop()
    used -= entry.account.bytes
    entry.account.bytes = 0
    entry.account.closed = true
  }

  function expire(id: string, entry: SessionEntry): void {
    release(id, entry)
    dropped.delete(id)
    dropped.add(id)
    if (dropped.size > MAX_DROPPED_SESSIONS) dropped.delete(dropped.values().next().value as string)
  }

  const untilRoom = (time: number) => secondsUntilRoom(sessions, limits.idleMs, time)
  const chargeOf = (account: Account): SessionCharge =>
    boundedCharge(account, {
      used: () => used,
      add: (bytes) => (used += bytes),
      refuse: () =>
        tooManySessions(
          `The sessions (with the routes the default state recorded) hold ${mebibytes(used)} of the ${mebibytes(limits.maxSessionBytes)} they may in all (sessions.maxBytes, --max-session-memory). ${HOW_TO_END}, or reset this one.`,
          untilRoom(now()),
        ),
      limit: limits.maxSessionBytes,
    })

  function open(id: string, time: number, beforeCreate: ((active: ActiveScenario) => void) | undefined): SessionEntry {
    if (limits.maxSessions === 0) throw new ValidationError(SESSION_HEADER, 'Sessions are turned off (sessions.max is 0).')
    beforeCreate?.(current())
    if (sessions.size >= limits.maxSessions) {
      throw tooManySessions(
        `All ${limits.maxSessions} sessions are in use (sessions.max, --max-sessions), so session ${quote(id)} cannot start. ${HOW_TO_END}, or retry once one has been idle for the idle time.`,
        untilRoom(time),
      )
    }
    const recreated = dropped.delete(id) ? 'expired' : null
    // From the simulator's current scenario, at its initial state: it shares the scenario's orders.
    const { instance, account } = opened(chargeOf, (charge) => create(current(), charge))
    instance.recreatedUnannounced = recreated !== null
    moves++
    return { instance, account, created: time, lastUsed: time, recreated }
  }

  return {
    get(id, beforeCreate) {
      checkId(id)
      const time = now()
      for (const [key, entry] of sessions) {
        if (time - entry.lastUsed <= limits.idleMs) break
        expire(key, entry)
      }
      let entry = sessions.get(id)
      if (entry === undefined) {
        entry = open(id, time, beforeCreate)
      } else {
        sessions.delete(id)
        entry.lastUsed = time
      }
      sessions.set(id, entry)
      return entry.instance
    },
    list: () => [...sessions].map(([id, entry]) => infoOf(id, entry)),
    end(id) {
      const entry = sessions.get(id)
      if (entry !== undefined) release(id, entry)
      return entry !== undefined
    },
    has: (id) => sessions.has(id),
    bytes: () => used,
    chargeDefault: chargeOf({ bytes: 0, closed: false }),
    close() {
      for (const { instance } of sessions.values()) instance.lifecycle.stop()
    },
    live: () => liveOf(sessions, now() - limits.idleMs),
    restore(id, created, build) {
      checkRestorable(sessions, id, limits.maxSessions)
      const { instance, account } = opened(chargeOf, build)
      moves++
      sessions.set(id, { instance, account, created, lastUsed: now(), recreated: null })
    },
    revision: () => moves + weightOf(sessions, weigh),
  }
}

/** Seconds until the least recently used session goes idle, and so makes room. */
function secondsUntilRoom(sessions: ReadonlyMap<string, SessionEntry>, idleMs: number, time: number): number {
  const oldest = sessions.values().next().value
  return oldest === undefined ? 1 : (oldest.lastUsed + idleMs - time) / 1000
}

/** Refuses a restored session with a bad id, one already there, or one past `sessions.max`. */
function checkRestorable(sessions: ReadonlyMap<string, SessionEntry>, id: string, max: number): void {
  checkId(id)
  if (sessions.has(id)) throw new ValidationError(SESSION_HEADER, `Session ${quote(id)} is there twice.`)
  if (sessions.size >= max) throw new ValidationError('sessions.max', `more sessions than the ${max} sessions.max allows (--max-sessions).`)
}

/** What the live sessions weigh together: one loop, no copy. */
function weightOf(sessions: ReadonlyMap<string, SessionEntry>, weigh: (instance: SimulatorInstance) => number): number {
  let sum = 0
  for (const entry of sessions.values()) sum += weigh(entry.instance)
  return sum
}

/** A new session's account, charged what any session holds, and its state made by `build`; a refused one holds nothing. */
function opened(
  chargeOf: (account: Account) => SessionCharge,
  build: (charge: SessionCharge) => SimulatorInstance,
): { instance: SimulatorInstance; account: Account } {
  const account: Account = { bytes: 0, closed: false }
  const charge = chargeOf(account)
  charge(SESSION_BYTES)
  try {
    return { instance: build(charge), account }
  } catch (error) {
    charge(-account.bytes)
    throw error
  }
}

/** The sessions used since `since`, least recently used first. */
function liveOf(sessions: ReadonlyMap<string, SessionEntry>, since: number): ReturnType<Sessions['live']> {
  const live: ReturnType<Sessions['live']> = []
  for (const [id, { instance, created, lastUsed }] of sessions) if (lastUsed >= since) live.push({ id, instance, created })
  return live
}

function infoOf(id: string, entry: SessionEntry): SessionInfo {
  return {
    id,
    scenario: entry.instance.active.scenario.name,
    created: new Date(entry.created).toISOString(),
    lastUsed: new Date(entry.lastUsed).toISOString(),
    requests: entry.instance.journal.entries().length,
    recreated: entry.recreated,
  }
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`
}
