// What shaped a simulator's default state at start (its scenario option and those that apply to it), as a
// snapshot records it: a restore into a simulator started otherwise lets the options win for that state.
import * as v from 'valibot'
import type { FaultInput } from '../controls/faults.js'
import type { LatencyRanges } from '../controls/latency.js'
import type { RateLimit } from '../controls/rate-limit.js'
import type { LifecycleRule } from '../lifecycle/lifecycle-rule.js'
import { quote } from '../quote-value.js'
import { isPlainObject } from '../scenario/plain-object.js'

/** A scenario's fingerprint as scenario-fingerprint.ts writes it: 64 bits in hex. */
export const FINGERPRINT = /^[0-9a-f]{16}$/

/** A plain JSON value, as a snapshot keeps what an option was once checked. */
type Plain = string | number | boolean | null | Plain[] | { [key: string]: Plain }

/**
 * The options a default state is made from, as given (each only when given; the scenario always): the
 * scenario by name or path, or an object's name and fingerprint. Compared by value, key order aside.
 */
export interface StartedWith {
  scenario: string | { name: string; fingerprint: string }
  seed?: number
  exposeStatus?: boolean
  afterCancel?: 'keep' | 'remove'
  latency?: Plain
  rateLimit?: Plain
  faults?: Plain
  lifecycle?: Plain
}

/** What `startedWithOf` reads: the options as checked, the scenario as given. */
export interface StartOptions {
  scenario: string | { name: string; fingerprint: () => string }
  seed: number | undefined
  exposeStatus: boolean | undefined
  afterCancel: 'keep' | 'remove' | undefined
  latency: LatencyRanges | undefined
  rateLimit: RateLimit | null
  faults: readonly FaultInput[]
  lifecycle: LifecycleRule | null | undefined
}

/** The record a snapshot writes: checked values (so "50" and 50 are one latency), a fault's int64 id as its digits. */
export function startedWithOf(start: StartOptions): StartedWith {
  const { scenario } = start
  const faults = start.faults.map((fault) => (fault.orderId === undefined ? fault : { ...fault, orderId: String(fault.orderId) }))
  const given: Record<string, unknown> = {
    scenario: typeof scenario === 'string' ? scenario : { name: scenario.name, fingerprint: scenario.fingerprint() },
    seed: start.seed,
    exposeStatus: start.exposeStatus,
    afterCancel: start.afterCancel,
    latency: start.latency,
    rateLimit: start.rateLimit ?? undefined,
    faults: faults.length === 0 ? undefined : faults,
    lifecycle: start.lifecycle,
  }
  // Through JSON: what is left undefined is absent, as a snapshot read back has it.
  return JSON.parse(JSON.stringify(given)) as StartedWith
}

/** Bounds of an option's value as a snapshot may hold it: far past what any option checks to. */
const MAX_DEPTH = 8
const MAX_NODES = 10_000
const MAX_TEXT = 4096

/** Whether `value` is plain JSON within the bounds above, with no `__proto__` key: walked without recursion. */
function isBoundedPlain(value: unknown): boolean {
  const pending: [unknown, number][] = [[value, 0]]
  let nodes = 0
  while (pending.length > 0) {
    const [item, depth] = pending.pop() as [unknown, number]
    if (++nodes > MAX_NODES || depth > MAX_DEPTH) return false
    if (item === null || typeof item === 'boolean') continue
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) return false
      continue
    }
    if (typeof item === 'string') {
      if (item.length > MAX_TEXT) return false
      continue
    }
    if (Array.isArray(item)) {
      for (const inner of item) pending.push([inner, depth + 1])
      continue
    }
    if (!isPlainObject(item) || Object.hasOwn(item, '__proto__')) return false
    for (const key of Object.keys(item)) {
      if (key.length > MAX_TEXT) return false
      pending.push([item[key], depth + 1])
    }
  }
  return true
}

const plain = v.custom<Plain>(isBoundedPlain, `plain JSON of at most ${MAX_NODES} values, ${MAX_DEPTH} levels deep`)
const named = v.pipe(v.string(), v.minLength(1, 'is empty'), v.maxLength(MAX_TEXT, `is longer than ${MAX_TEXT} characters`))

/**
 * `startedWith` in a document: what this simulator writes, each option's value bounded. Typed by what it
 * gives: valibot's own type of it nests the recursive `Plain` past what a consumer's tsc checks (skipLibCheck off).
 */
export const startedWithSchema: v.GenericSchema<unknown, StartedWith> = v.strictObject({
  scenario: v.union([
    named,
    v.strictObject({ name: named, fingerprint: v.pipe(v.string(), v.regex(FINGERPRINT, 'is not a fingerprint this simulator writes')) }),
  ]),
  seed: v.optional(v.pipe(v.number(), v.safeInteger('is not a whole number'), v.minValue(0, 'is below 0'))),
  exposeStatus: v.optional(v.boolean()),
  afterCancel: v.optional(v.picklist(['keep', 'remove'])),
  latency: v.optional(plain),
  rateLimit: v.optional(plain),
  faults: v.optional(plain),
  lifecycle: v.optional(plain),
})

/** A value's JSON text with each object's keys sorted: equal texts, equal values. Bounded in depth by the schema. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  if (isPlainObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`
  return JSON.stringify(value) ?? 'none'
}

/** Each option a warning names, with the flag that gives it on the command line, if one does. */
const OPTIONS: readonly [key: keyof StartedWith, flag: string | null, shownValue: boolean][] = [
  ['scenario', '--scenario', true],
  ['seed', '--seed', true],
  ['latency', '--latency', false],
  ['rateLimit', '--rate-limit', false],
  ['faults', null, false],
  ['lifecycle', '--ship-after', false],
  ['exposeStatus', '--expose-status', true],
  ['afterCancel', '--after-cancel', true],
]

/** An option's value in a warning: a scenario object by its name, a value left out as "not given". */
function shownOf(value: unknown): string {
  if (value === undefined) return 'not given'
  if (isPlainObject(value) && typeof value.name === 'string') return `the object ${quote(value.name)}`
  return quote(value)
}

/**
 * What changed between the options a snapshot's default state was made from and this simulator's, as
 * one clause (`the scenario option (--scenario) changed from "pending" to "shipped"`); undefined when none did.
 */
export function startChanges(saved: StartedWith, now: StartedWith): string | undefined {
  const changes: string[] = []
  for (const [key, flag, shown] of OPTIONS) {
    if (canonical(saved[key]) === canonical(now[key])) continue
    const name = `the ${key} option${flag === null ? '' : ` (${flag})`} changed`
    const same = shownOf(saved[key]) === shownOf(now[key])
    changes.push(
      !shown
        ? name
        : same
          ? `${name}: ${shownOf(now[key])} is not the same one`
          : `${name} from ${shownOf(saved[key])} to ${shownOf(now[key])}`,
    )
  }
  return changes.length === 0 ? undefined : changes.join('; ')
}
