import * as v from 'valibot'
import { type ControlsSnapshot, controlsSnapshotSchema } from '../controls/controls.js'
import { type LifecycleSnapshot, lifecycleSnapshotSchema } from '../lifecycle/order-lifecycle.js'
import { type CoverageSnapshot, coverageSnapshotSchema } from '../outcome-coverage/coverage-counter.js'
import { type RecordedRouteSnapshot, recordedRouteSnapshotSchema } from '../routes/recorded-snapshot.js'
import { MAX_ROUTES } from '../routes/route-schema.js'
import { quote } from '../quote-value.js'
import { isDateTime } from '../scenario/date-time.js'
import { MAX_SCENARIO_FILE_BYTES } from '../scenario/scenario-file.js'
import { OWN_ORDER_BYTES, type OwnOrderRecord, ownOrderRecordSchema } from '../state/order-store.js'
import { ValidationError } from '../validation-error.js'
import { SESSION_ID } from './session-id.js'

/** The format `sim.snapshot()` writes and `restore` reads; a document of another version is refused whole. */
export const SNAPSHOT_VERSION = 1

/** Which scenario a state was loaded from: named (a built-in, a scenarios-folder file, the one the simulator started with) or embedded. */
export type SnapshotScenario =
  | {
      /** What the scenario was given as: resolved again on restore, and only a name or the simulator's own start. */
      ref: string
      seed: number | null
      /** Its orders and routes as loaded then: a different one on restore (an edited file, an upgrade) starts the state afresh. */
      fingerprint: string
    }
  | {
      /** The scenario's JSON text, every digit of its int64 ids kept. */
      inline: string
      seed: number | null
      fingerprint: string
    }

/** One state: the default one (`session` null) or a session's; only what it changed, never the scenario's orders. */
export interface SnapshotState {
  session: string | null
  /** When the session was made (ISO 8601); absent for the default state. */
  created?: string
  scenario: SnapshotScenario
  orders: { records: OwnOrderRecord[]; nextPosition: number }
  clock: LifecycleSnapshot
  controls: ControlsSnapshot
  recorded: RecordedRouteSnapshot[]
  coverage: CoverageSnapshot
}

/**
 * Every state of a simulator, as plain JSON data: what `sim.snapshot()` returns and
 * `createSimulator({ restore })` takes, in this process or another (through `JSON.stringify`).
 * Only `version` is a promise; the other fields are opaque and may change with it.
 */
export interface SimulatorSnapshot {
  /** The format, 1: a simulator takes back a snapshot of its own format only. */
  version: typeof SNAPSHOT_VERSION
  /** Opaque: when it was taken (ISO 8601). */
  savedAt: string
  /** Opaque: the version of petstore-orders-simulator that took it. */
  simulator: string
  /** Opaque: the default state, then the sessions from the least recently used. */
  states: SnapshotState[]
}

/** The bounds a document must keep, from the simulator's options. */
export interface SnapshotLimits {
  maxSessions: number
  maxSessionBytes: number
}

/** The most own orders the default state may bring: its own are not charged (as live), so a fixed bound, twice a scenario's most. */
const DEFAULT_STATE_ORDERS = 200_000

/** An array of at most `max` items, counted before any item is read: a huge one is refused at once. */
const bounded = <T extends v.GenericSchema>(item: T, max: number) =>
  v.pipe(v.array(v.unknown()), v.maxLength(max, `holds more than ${max} items`), v.array(item))

const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `is longer than ${max} characters`))
const when = v.pipe(text(40), v.check(isDateTime, 'is not an ISO 8601 date-time'))
const seed = v.nullable(v.pipe(v.number(), v.safeInteger('is not a whole number'), v.minValue(0, 'is below 0')))
const fingerprint = v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/, 'is not a fingerprint this simulator writes'))
const scenarioSchema = v.union([
  v.strictObject({ ref: v.pipe(text(4096), v.minLength(1, 'is empty')), seed, fingerprint }),
  v.strictObject({ inline: text(MAX_SCENARIO_FILE_BYTES), seed, fingerprint }),
])

function stateSchema(maxOrders: number) {
  return v.strictObject({
    session: v.nullable(v.pipe(text(128), v.regex(SESSION_ID, 'is not a session id (1 to 128 letters, digits and . _ : -)'))),
    created: v.optional(when),
    scenario: scenarioSchema,
    orders: v.strictObject({
      records: bounded(ownOrderRecordSchema, maxOrders),
      nextPosition: v.pipe(v.number(), v.safeInteger('is not a whole number'), v.minValue(0, 'is below 0')),
    }),
    clock: lifecycleSnapshotSchema,
    controls: controlsSnapshotSchema,
    recorded: bounded(recordedRouteSnapshotSchema, MAX_ROUTES),
    coverage: coverageSnapshotSchema,
  }) satisfies v.GenericSchema<unknown, SnapshotState>
}

/** A key of a path as a message writes it: a plain name as it is, anything else quoted. */
const keyText = (key: unknown) => (typeof key === 'string' && /^[A-Za-z_$][\w$]{0,63}$/.test(key) ? `.${key}` : `[${quote(key)}]`)

/** A value as a message shows it: short, on one line (an array by its length: its items may be a million). */
const shown = (input: unknown) => (Array.isArray(input) ? `an array of ${input.length} items` : quote(input))

/** Of a union's issues (a scenario by name or embedded), the one about a value given rather than a field left out, its path whole. */
function innermost(issue: v.BaseIssue<unknown>): { issue: v.BaseIssue<unknown>; path: v.IssuePathItem[] } {
  const inner = issue.issues?.find((each) => each.input !== undefined && each.expected !== 'never')
  if (inner === undefined) return { issue, path: issue.path ?? [] }
  // A union's issues carry their path from the union on.
  const found = innermost(inner)
  return { issue: found.issue, path: [...(issue.path ?? []), ...found.path] }
}

/** Why a value is refused, as said after its field: valibot's own messages repeat the input unbounded, so only what it expected is kept. */
function reason(issue: v.BaseIssue<unknown>): string {
  const { message, expected, type } = issue
  if (message.startsWith('Invalid ')) return expected === null ? ` is not valid (${type.replace(/_/g, ' ')})` : ` must be ${expected}`
  if (/^(?:is|holds|has|must)\b/.test(message)) return ` ${message}`
  return /\bmust\b/.test(message) ? `: ${message}` : ` must be ${message}`
}

/** One line naming the field at fault and why, whatever the input held (control characters, a huge string). */
function issueLine(outer: v.BaseIssue<unknown>): string {
  const { issue, path } = innermost(outer)
  let at = ''
  for (const item of path) at += typeof item.key === 'number' ? `[${item.key}]` : keyText(item.key)
  const field = at.replace(/^\./, '') || 'the snapshot'
  if (issue.expected === 'never') return `${field} is not a field of a snapshot`
  if (issue.input === undefined && issue.kind === 'schema' && /^"/.test(issue.expected ?? '')) return `${field} is missing`
  return `${field}${reason(issue)
    .replace(/\p{Cc}/gu, ' ')
    .slice(0, 200)}, got ${shown(issue.input)}`
}

const refuse = (why: string): never => {
  throw new ValidationError('restore', `restore: ${why}.`)
}

/** The own orders a document's states hold in all, read before anything is parsed: a document of a million is refused at once. */
function ownOrdersIn(states: readonly unknown[]): number {
  let count = 0
  for (const state of states) {
    const records = (state as { orders?: { records?: unknown } } | null)?.orders?.records
    if (Array.isArray(records)) count += records.length
  }
  return count
}

/**
 * Checks untrusted input (a state file, a worker's message) into a snapshot: every field strict, every
 * array bounded, the states within the sessions' bounds, at most one default state, each session once.
 * Throws a `ValidationError` whose message is one line, `restore: <why>`.
 */
export function parseSnapshot(input: unknown, limits: SnapshotLimits): SimulatorSnapshot {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    refuse(`a snapshot is the object sim.snapshot() returns, got ${shown(input)}`)
  const { version, states } = input as { version?: unknown; states?: unknown }
  if (version !== SNAPSHOT_VERSION) refuse(`the snapshot is of version ${quote(version)}; this simulator reads version ${SNAPSHOT_VERSION}`)
  if (Array.isArray(states)) {
    if (states.length > limits.maxSessions + 1)
      refuse(`the snapshot holds ${states.length} states; at most ${limits.maxSessions} sessions (sessions.max) and the default state fit`)
    // What the orders would take: a session's are charged against sessions.maxBytes, the default state's are bounded apart.
    const most = Math.floor(limits.maxSessionBytes / OWN_ORDER_BYTES) + DEFAULT_STATE_ORDERS
    const count = ownOrdersIn(states)
    if (count > most)
      refuse(`the snapshot holds ${count} orders of its states' own, more than sessions.maxBytes (--max-session-memory) allows`)
  }
  const maxOrders = Math.max(Math.floor(limits.maxSessionBytes / OWN_ORDER_BYTES), DEFAULT_STATE_ORDERS)
  const schema = v.strictObject({
    version: v.literal(SNAPSHOT_VERSION),
    savedAt: when,
    simulator: text(64),
    states: bounded(stateSchema(maxOrders), limits.maxSessions + 1),
  })
  const parsed = v.safeParse(schema, input, { abortEarly: true })
  if (!parsed.success) return refuse(issueLine(parsed.issues[0]))
  const sessions = new Set<string>()
  let defaults = 0
  for (const state of parsed.output.states) {
    if (state.session === null) {
      if (++defaults > 1) refuse('the snapshot holds two default states (session null)')
      if (state.created !== undefined) refuse('the default state has no creation time')
    } else {
      if (sessions.has(state.session)) refuse(`session ${quote(state.session)} is in the snapshot twice`)
      sessions.add(state.session)
      if (state.created === undefined) refuse(`session ${quote(state.session)} has no creation time`)
    }
  }
  return parsed.output
}
