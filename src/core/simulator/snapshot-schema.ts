import * as v from 'valibot'
import type { ControlsSnapshot } from '../controls/controls.js'
import { controlsSnapshotSchema } from '../controls/controls-snapshot-schema.js'
import { lifecycleSnapshotSchema } from '../lifecycle/lifecycle-snapshot-schema.js'
import type { LifecycleSnapshot } from '../lifecycle/order-lifecycle.js'
import type { CoverageSnapshot } from '../outcome-coverage/coverage-counter.js'
import { coverageSnapshotSchema } from '../outcome-coverage/coverage-snapshot-schema.js'
import { type RecordedRouteSnapshot, recordedRouteSnapshotSchema } from '../routes/recorded-snapshot.js'
import { MAX_ROUTES } from '../routes/route-schema.js'
import { quote } from '../quote-value.js'
import { isDateTime } from '../scenario/date-time.js'
import { MAX_SCENARIO_FILE_BYTES } from '../scenario/scenario-file.js'
import { ownOrderRecordSchema } from '../state/order-record-schema.js'
import type { OwnOrderRecord } from '../state/order-store.js'
import { ValidationError } from '../validation-error.js'
import { SESSION_ID } from './session-id.js'
import { FINGERPRINT, type StartedWith, startedWithSchema } from './started-with.js'

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
  /** Opaque: the options the default state was made from; restored into a simulator started otherwise, it starts from the options. */
  startedWith: StartedWith
  /** Opaque: the default state, then the sessions from the least recently used. */
  states: SnapshotState[]
}

/** The bounds a document must keep, from the simulator's options. */
export interface SnapshotLimits {
  maxSessions: number
  maxSessionBytes: number
}

/** The most own orders the default state may bring: its own are not charged (as live), so a fixed bound, twice a scenario's most. */
export const DEFAULT_STATE_ORDERS = 200_000
/** The most states a document may list, whatever sessions.max is: past sessions.max, only the most recently used are read. */
const MAX_LISTED_STATES = 100_000

/** An array of at most `max` items, counted before any item is read: a huge one is refused at once. */
const bounded = <T extends v.GenericSchema>(item: T, max: number) =>
  v.pipe(v.array(v.unknown()), v.maxLength(max, `holds more than ${max} items`), v.array(item))

const text = (max: number) => v.pipe(v.string(), v.maxLength(max, `is longer than ${max} characters`))
const when = v.pipe(text(40), v.check(isDateTime, 'is not an ISO 8601 date-time'))
const seed = v.nullable(v.pipe(v.number(), v.safeInteger('is not a whole number'), v.minValue(0, 'is below 0')))
const fingerprint = v.pipe(v.string(), v.regex(FINGERPRINT, 'is not a fingerprint this simulator writes'))
const scenarioSchema = v.union([
  v.strictObject({ ref: v.pipe(text(4096), v.minLength(1, 'is empty')), seed, fingerprint }),
  v.strictObject({ inline: text(MAX_SCENARIO_FILE_BYTES), seed, fingerprint }),
])

/** One state, its own orders at most `maxOrders` (counted before any is read). */
export function stateSchema(maxOrders: number) {
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
type StateSchema = ReturnType<typeof stateSchema>

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

/** One line naming the field at fault (under `root`, a state's place in the document) and why, whatever the input held. */
function issueLine(outer: v.BaseIssue<unknown>, root = ''): string {
  const { issue, path } = innermost(outer)
  let at = root
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

/** A document whose states are yet to be read, one by one (`parseState`). */
export type SnapshotDocument = Omit<SimulatorSnapshot, 'states'> & { states: unknown[] }

/**
 * Checks that untrusted input (a state file, a worker's message) is a snapshot at all: an object of this
 * version, its fields strict, its states an array of at most 100,000 (or sessions.max and the default
 * state) not yet read. Throws a `ValidationError` whose message is one line, `restore: <why>`.
 */
export function parseDocument(input: unknown, limits: SnapshotLimits): SnapshotDocument {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    refuse(`a snapshot is the object sim.snapshot() returns, got ${shown(input)}`)
  const { version } = input as { version?: unknown }
  if (version !== SNAPSHOT_VERSION) refuse(`the snapshot is of version ${quote(version)}; this simulator reads version ${SNAPSHOT_VERSION}`)
  const most = Math.max(limits.maxSessions + 1, MAX_LISTED_STATES)
  const schema = v.strictObject({
    version: v.literal(SNAPSHOT_VERSION),
    savedAt: when,
    simulator: text(64),
    startedWith: startedWithSchema,
    states: v.pipe(v.array(v.unknown()), v.maxLength(most, `holds more than ${most} states`)),
  })
  const parsed = v.safeParse(schema, input, { abortEarly: true })
  if (!parsed.success) return refuse(issueLine(parsed.issues[0]))
  return parsed.output
}

/** How many own orders a state not yet read lists: what a restore weighs before it reads them. */
export function ownOrdersOf(state: unknown): number {
  const records = (state as { orders?: { records?: unknown } } | null)?.orders?.records
  return Array.isArray(records) ? records.length : 0
}

/**
 * One state of a document (at `index`) checked: every field strict, every array bounded, a session
 * with its creation time (not after `savedAt`), the default state without. Throws a `ValidationError`
 * whose message is one line naming the field (`states[2].orders...`).
 */
export function parseState(input: unknown, index: number, schema: StateSchema, savedAt: string): SnapshotState {
  const parsed = v.safeParse(schema, input, { abortEarly: true })
  const where = `states[${index}]`
  if (!parsed.success) throw new ValidationError('restore', issueLine(parsed.issues[0], where))
  const state = parsed.output
  const bad = (why: string) => new ValidationError('restore', `${where}${why}`)
  if (state.session === null && state.created !== undefined) throw bad('.created is set, and the default state has no creation time')
  if (state.session !== null && state.created === undefined) throw bad('.created is missing: a session has its creation time')
  if (state.created !== undefined && Date.parse(state.created) > Date.parse(savedAt))
    throw bad(`.created (${state.created}) is later than the snapshot's savedAt (${savedAt})`)
  return state
}
