// createSimulator({ restore }): a snapshot's states put back one at a time. Only a document that is no
// snapshot at all is refused; a state that cannot be restored is skipped with one warning, never half-applied.
import { ApiError } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { quote } from '../quote-value.js'
import { recordedRouteOf } from '../routes/recorded-snapshot.js'
import { isPlainObject } from '../scenario/plain-object.js'
import { OWN_ORDER_BYTES } from '../state/order-store.js'
import { ValidationError } from '../validation-error.js'
import type { InstanceFactory, SimulatorInstance } from './instance.js'
import { SESSION_BYTES } from './options.js'
import { SESSION_ID } from './session-id.js'
import type { SessionCharge, Sessions } from './sessions.js'
import { activeOf, type Naming, oneLine } from './snapshot-naming.js'
import {
  DEFAULT_STATE_ORDERS,
  ownOrdersOf,
  parseDocument,
  parseState,
  type SnapshotLimits,
  type SnapshotState,
  stateSchema,
} from './snapshot-schema.js'
import { type StartedWith, startChanges } from './started-with.js'

/** What a restore puts the states into: a simulator just made. */
export interface RestoreContext {
  factory: InstanceFactory
  naming: Naming
  root(): SimulatorInstance
  sessions: Sessions
  limits: SnapshotLimits
  /** What this simulator's default state was made from, to compare with the snapshot's. */
  startedWith(): StartedWith
}

const MEMORY = 'the states need more than sessions.maxBytes (--max-session-memory) allows'

/** Why a state is not restored, on one line: what was thrown, a session's charge past the bound said as such. */
function reasonOf(error: unknown): string {
  if (error instanceof ApiError && error.code === ErrorCode.TooManySessions) return MEMORY
  return oneLine((error instanceof Error ? error.message : String(error)).replace(/^restore: /, ''))
}

/** Puts a state's own parts back on `instance`, fresh at the initial state of its scenario; coverage always (it outlives resets). */
function apply(instance: SimulatorInstance, state: SnapshotState, same: boolean): void {
  if (same) {
    instance.store.restoreOwn(state.orders.records, state.orders.nextPosition)
    instance.lifecycle.restore(state.clock, instance.active.initialOrders)
    instance.controls.restore(state.controls)
    state.recorded.forEach((recorded, index) => {
      if (!instance.routes.add(recordedRouteOf(recorded)))
        throw new ValidationError(
          'restore',
          `recorded[${index}] (${recorded.method} ${quote(recorded.path)}) does not fit: the scenario answers it, or the bounds of recordings are reached`,
        )
    })
  }
  instance.coverage.restore(state.coverage)
}

/** The default state from its entry; when it cannot be, the simulator's start scenario afresh. */
function restoreDefault(context: RestoreContext, entry: unknown, index: number, savedAt: string, say: (line: string) => void): void {
  const { factory, naming } = context
  const root = context.root()
  const start = root.active
  const notes: string[] = []
  try {
    const state = parseState(entry, index, stateSchema(DEFAULT_STATE_ORDERS), savedAt)
    const { active, same } = activeOf(
      naming,
      state.scenario,
      'the default state',
      () => start,
      (line) => notes.push(line),
    )
    if (active !== root.active) void factory.reload(root, active)
    apply(root, state, same)
  } catch (error) {
    // Whatever was put back goes: orders, clock, controls, recordings (their charge with them) and counts.
    void factory.reload(root, start)
    root.coverage.clear()
    say(`the default state not restored: ${reasonOf(error)}; it starts from the simulator's scenario`)
    return
  }
  for (const note of notes) say(note)
}

/** One session from its entry, made whole or not at all (its timers stopped, its charge given back). */
function restoreSession(context: RestoreContext, state: SnapshotState & { session: string }, where: string, say: (line: string) => void) {
  const { factory, naming, sessions } = context
  const notes: string[] = []
  sessions.restore(state.session, Date.parse(state.created as string), (charge: SessionCharge) => {
    const { active, same } = activeOf(
      naming,
      state.scenario,
      where,
      () => context.root().active,
      (line) => notes.push(line),
    )
    const instance = factory.create(active, charge)
    try {
      apply(instance, state, same)
    } catch (error) {
      instance.lifecycle.stop()
      throw error
    }
    return instance
  })
  for (const note of notes) say(note)
}

const isDefault = (entry: unknown) => isPlainObject(entry) && entry.session === null
/** A session's id as a warning names it, when its entry holds one that can be. */
const idOf = (entry: unknown) => {
  const id = isPlainObject(entry) ? entry.session : undefined
  return typeof id === 'string' && SESSION_ID.test(id) ? id : undefined
}

/**
 * Restores `input` into a simulator just made: the default state (unless the start options changed since,
 * then it starts from them), then each session in the order written (least recently used first), each
 * used now; past sessions.max, only the most recently used. Throws a `ValidationError` (`restore: …`) only
 * when `input` is not a snapshot at all; `warn` is told, one line each, of every state left out and why.
 */
export function restoreSnapshot(context: RestoreContext, input: unknown, warn: (line: string) => void): void {
  const document = parseDocument(input, context.limits)
  const { limits, sessions } = context
  const say = (line: string) => warn(line.replace(/[\p{Cc}\u2028\u2029]/gu, ' '))
  const defaults: number[] = []
  const others: number[] = []
  for (const [index, entry] of document.states.entries()) (isDefault(entry) ? defaults : others).push(index)

  const changed = startChanges(document.startedWith, context.startedWith())
  if (changed !== undefined) say(`the default state starts from the options, not the snapshot: ${changed}`)
  else if (defaults[0] !== undefined) restoreDefault(context, document.states[defaults[0]], defaults[0], document.savedAt, say)
  if (defaults.length > 1)
    say(`${defaults.length - 1} more default state(s) not restored: a snapshot holds one (session null), and states[${defaults[0]}] is it`)

  const dropped = Math.max(0, others.length - limits.maxSessions)
  if (dropped > 0)
    say(
      `${dropped} of the snapshot's ${others.length} sessions not restored, the least recently used: sessions.max (--max-sessions) is ${limits.maxSessions}`,
    )
  const schema = stateSchema(Math.floor(limits.maxSessionBytes / OWN_ORDER_BYTES))
  const first = new Map<string, number>()
  for (const index of others.slice(dropped)) {
    const entry = document.states[index]
    const id = idOf(entry)
    const where = id === undefined ? `states[${index}]` : `session ${quote(id)}`
    const before = id === undefined ? undefined : first.get(id)
    if (before !== undefined) {
      say(`${where} not restored: the snapshot holds it twice, and states[${before}] came first`)
      continue
    }
    if (id !== undefined) first.set(id, index)
    try {
      // Weighed before it is read: orders the bound could not hold are never parsed.
      if (SESSION_BYTES + ownOrdersOf(entry) * OWN_ORDER_BYTES > limits.maxSessionBytes - sessions.bytes())
        throw new ValidationError('restore', MEMORY)
      const state = parseState(entry, index, schema, document.savedAt)
      restoreSession(context, state as SnapshotState & { session: string }, where, say)
    } catch (error) {
      say(`${where} not restored: ${reasonOf(error)}`)
    }
  }
}
