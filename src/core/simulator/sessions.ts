import { ValidationError } from '../validation-error.js'
import type { ActiveScenario, SimulatorInstance } from './instance.js'
import type { SessionInfo } from './types.js'
import { quote } from '../quote-value.js'

/** The header that gives a caller its own copy of the state. */
export const SESSION_HEADER = 'X-Sim-Session'
const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/
/** How many dropped session ids are remembered, to tell a recreated session from a new one. */
const MAX_DROPPED_SESSIONS = 1000

type DropReason = 'evicted' | 'expired'

interface SessionEntry {
  instance: SimulatorInstance
  created: number
  lastUsed: number
  recreated: DropReason | null
}

export interface Sessions {
  /**
   * The session `id`, made from `current()` when it does not exist, unless
   * `beforeCreate` throws. Throws a `ValidationError` for a bad id.
   */
  get(id: string, beforeCreate?: (active: ActiveScenario) => void): SimulatorInstance
  list(): SessionInfo[]
  end(id: string): boolean
  /** Stops the timers of every session. */
  close(): void
}

/** Sessions by id, bounded in number (least recently used go first) and dropped when idle. */
export function createSessions(
  limits: { maxSessions: number; idleMs: number },
  current: () => ActiveScenario,
  create: (active: ActiveScenario) => SimulatorInstance,
): Sessions {
  // Least recently used first, so the idle ones are at the front: no walk of them all.
  const sessions = new Map<string, SessionEntry>()
  // Ids of sessions dropped lately (oldest first), and why.
  const dropped = new Map<string, DropReason>()

  function drop(id: string, why: DropReason): void {
    sessions.get(id)?.instance.lifecycle.stop()
    sessions.delete(id)
    dropped.delete(id)
    dropped.set(id, why)
    if (dropped.size > MAX_DROPPED_SESSIONS) dropped.delete(dropped.keys().next().value as string)
  }

  function open(id: string, now: number, beforeCreate: ((active: ActiveScenario) => void) | undefined): SessionEntry {
    if (limits.maxSessions === 0) throw new ValidationError(SESSION_HEADER, 'Sessions are turned off (sessions.max is 0).')
    beforeCreate?.(current())
    const recreated = dropped.get(id) ?? null
    dropped.delete(id)
    // From the simulator's current scenario, at its initial state.
    const entry: SessionEntry = { instance: create(current()), created: now, lastUsed: now, recreated }
    entry.instance.recreatedUnannounced = recreated !== null
    while (sessions.size >= limits.maxSessions) drop(sessions.keys().next().value as string, 'evicted')
    return entry
  }

  return {
    get(id, beforeCreate) {
      if (!SESSION_ID.test(id)) {
        throw new ValidationError(SESSION_HEADER, `Invalid session id ${quote(id)}: use 1 to 128 letters, digits and . _ : - characters.`)
      }
      const now = Date.now()
      for (const [key, entry] of sessions) {
        if (now - entry.lastUsed <= limits.idleMs) break
        drop(key, 'expired')
      }
      let entry = sessions.get(id)
      if (entry === undefined) {
        entry = open(id, now, beforeCreate)
      } else {
        sessions.delete(id)
        entry.lastUsed = now
      }
      sessions.set(id, entry)
      return entry.instance
    },
    list: () =>
      [...sessions].map(([id, entry]) => ({
        id,
        scenario: entry.instance.active.scenario.name,
        created: new Date(entry.created).toISOString(),
        lastUsed: new Date(entry.lastUsed).toISOString(),
        requests: entry.instance.journal.entries().length,
        recreated: entry.recreated,
      })),
    end(id) {
      sessions.get(id)?.instance.lifecycle.stop()
      return sessions.delete(id)
    },
    close() {
      for (const { instance } of sessions.values()) instance.lifecycle.stop()
    },
  }
}
