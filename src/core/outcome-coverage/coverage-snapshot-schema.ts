import * as v from 'valibot'
import { OPERATION_IDS } from '../operations/registry.js'
import { type Control, type CoverageSnapshot, provokedKey } from './coverage-counter.js'
import { outcomeId, SPEC_OUTCOMES } from './outcomes.js'

// Apart from the counter so that only snapshot code loads it: a page's bundle never carries it.

const CONTROLS = ['fault', 'latency', 'prefer', 'rate-limit'] as const satisfies readonly Control[]
/** The most provoked entries a snapshot may hold: far more than operations times the statuses controls make. */
const MAX_PROVOKED = 1000
const count = (min: number, max = Number.MAX_SAFE_INTEGER) => v.pipe(v.number(), v.safeInteger(), v.minValue(min), v.maxValue(max))
/** An object of exactly the known names (each optional), so that no other key (`__proto__`) is ever read. */
const countsOf = (names: readonly string[]) =>
  v.pipe(
    v.strictObject(Object.fromEntries(names.map((name) => [name, v.exactOptional(count(1))]))),
    // A name absent is left out (never undefined): each present one is a count.
    v.transform((counts) => counts as Record<string, number>),
  )

const ProvokedShape = v.pipe(
  v.strictObject({
    id: v.pipe(v.string(), v.maxLength(200)),
    operation: v.picklist(OPERATION_IDS),
    status: count(0, 599),
    // An Error code, or what a fault or a latency made of the answer (network, slow-body, aborted...).
    code: v.nullable(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_-]{0,63}$/))),
    control: v.picklist(CONTROLS),
    count: count(1),
  }),
  v.check(
    ({ id, operation, status, code }) => id === outcomeId(operation, status, code) || id === outcomeId(operation, status, code, true),
    'a provoked id names its operation, status and code',
  ),
)

/** Counts from outside (a state file): documented outcomes and deprecated operations by name, provoked entries once each. */
export const coverageSnapshotSchema = v.strictObject({
  outcomes: countsOf(SPEC_OUTCOMES.outcomes.map((outcome) => outcome.id)),
  provoked: v.pipe(
    v.array(ProvokedShape),
    v.maxLength(MAX_PROVOKED),
    v.check((entries) => new Set(entries.map(provokedKey)).size === entries.length, 'each provoked entry once'),
  ),
  deprecatedCalls: countsOf(SPEC_OUTCOMES.deprecated.map((entry) => entry.operation)),
}) satisfies v.GenericSchema<unknown, CoverageSnapshot>
