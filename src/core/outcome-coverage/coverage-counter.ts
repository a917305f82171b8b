import type { OperationId } from '../operations/registry.js'
import type { JournalRecord } from '../state/journal.js'
import { runningTests } from './current-test.js'
import { type Recipe, recipeOf } from './outcome-recipes.js'
import { type DeprecatedOperation, type Outcome, outcomeId, SPEC_OUTCOMES } from './outcomes.js'
import { createTestAttribution } from './test-attribution.js'

/** The simulator's control that made an answer what it was, instead of (or, for latency, besides) the service's rules. */
export type Control = 'fault' | 'latency' | 'prefer' | 'rate-limit'

/** A documented outcome and how many answers were it. */
export interface OutcomeCount extends Outcome {
  count: number
}

/** A documented outcome in a coverage: its count, how to provoke it, and in a merged coverage the tests that saw it. */
export interface CoveredOutcome extends OutcomeCount {
  /** The admin calls and the one request that give this outcome on a fresh session (docs/coverage.md). */
  recipe: Recipe
  /** Only in what `petstore-sim coverage` merges: the names of the tests that saw it, in `tests`' order. */
  tests?: string[]
}

/** One test, by its full name (file and titles), and the documented outcomes its requests were answered with. */
export interface TestOutcomes {
  name: string
  /** Outcome ids, in the OpenAPI document's order. */
  outcomes: string[]
}

/** An answer a test provoked with the simulator's controls, counted apart from the service's own outcomes. */
export interface ProvokedCount extends OutcomeCount {
  control: Control
}

/** The calls of a deprecated operation, and the sunset date the simulator announced for it. */
export interface DeprecatedCalls extends DeprecatedOperation {
  calls: number
  /** ISO 8601. */
  sunset: string
}

/**
 * Which of the service's documented outcomes were answered, and how often:
 * `sim.coverage()`, `GET /__sim/coverage` and a coverage file (docs/coverage.md).
 */
export interface Coverage {
  /** Every documented outcome, in the OpenAPI document's order; `count` 0 for those never answered. */
  outcomes: CoveredOutcome[]
  /** How many of `outcomes` have a count. */
  exercised: number
  /** How many outcomes the service documents. */
  total: number
  /** What faults, latency, `Prefer` and the rate limit made of answers, apart from `outcomes` (a slow answer counts in both). */
  provoked: ProvokedCount[]
  /** The deprecated operations (GET /pets/{petId}) and how often they were called. */
  deprecated: DeprecatedCalls[]
  /**
   * The tests whose requests were answered with a documented outcome, in the
   * order they first were (at most `MAX_TESTS`): present once a test runner's
   * entry names the running test (docs/coverage.md), absent otherwise.
   */
  tests?: TestOutcomes[]
  /** How many more tests were answered once `tests` was full: counted, not named. Present only then. */
  testsLeftOut?: number
}

/** What a coverage holds beside its counts: the API base path its recipes name, and the tests that were answered. */
export interface CoverageExtras {
  /** The simulator's API base path, `/v1` by default: the recipes' requests are under it. */
  basePath?: string
  tests?: TestOutcomes[]
  testsLeftOut?: number
}

/** A provoked answer's key: the same outcome provoked by two controls is two entries. */
export const provokedKey = ({ control, id }: { control: Control; id: string }) => `${control} ${id}`

/**
 * A coverage whole: every documented outcome in the document's order with its count (0 when absent) and its recipe,
 * the totals, and the tests when there are any.
 */
export function coverageOf(
  counts: ReadonlyMap<string, number>,
  provoked: ProvokedCount[],
  deprecated: DeprecatedCalls[],
  { basePath, tests = [], testsLeftOut = 0 }: CoverageExtras = {},
): Coverage {
  const outcomes = SPEC_OUTCOMES.outcomes.map((outcome) => ({
    ...outcome,
    count: counts.get(outcome.id) ?? 0,
    recipe: recipeOf(outcome, basePath),
  }))
  const exercised = outcomes.filter((outcome) => outcome.count > 0).length
  const coverage: Coverage = { outcomes, exercised, total: outcomes.length, provoked, deprecated }
  // Absent rather than empty: a coverage without a runner's names keeps the shape it always had.
  if (tests.length > 0 || testsLeftOut > 0) coverage.tests = tests
  if (testsLeftOut > 0) coverage.testsLeftOut = testsLeftOut
  return coverage
}

/** What a snapshot keeps of a state's counts: only those above 0. */
export interface CoverageSnapshot {
  /** Documented outcome id to its count. */
  outcomes: Record<string, number>
  provoked: ProvokedCount[]
  /** Deprecated operation to its calls. */
  deprecatedCalls: Record<string, number>
}

/** A state's counts: they outlive resets and journal clears, until `clear`. */
export type CoverageCounter = ReturnType<typeof createCoverageCounter>

/** One documented outcome's count, found by comparing fields: no id is built per answer, so counting costs the list next to nothing. */
interface Slot {
  outcome: Outcome
  empty: boolean
  count: number
}

const DEPRECATED: ReadonlySet<string> = new Set(SPEC_OUTCOMES.deprecated.map((entry) => entry.operation))

/** Each operation's outcomes, in the document's order, each with a count at 0. */
function slotsByOperation(): Map<string, Slot[]> {
  const slots = new Map<string, Slot[]>()
  for (const outcome of SPEC_OUTCOMES.outcomes) {
    const empty = outcome.id.endsWith('.empty')
    slots.set(outcome.operation, [...(slots.get(outcome.operation) ?? []), { outcome, empty, count: 0 }])
  }
  return slots
}

/** The control that decided an answer instead of the service's rules, or undefined when the rules did. */
function controlOf({ answeredBy }: JournalRecord): Exclude<Control, 'latency'> | undefined {
  return answeredBy === 'fault' || answeredBy === 'prefer' || answeredBy === 'rate-limit' ? answeredBy : undefined
}

/** The code a provoked answer is named by: its Error code, else what a fault did to it (dropped, held, slowed, broken). */
function provokedCode({ code = null, fault }: JournalRecord): string | null {
  if (code !== null) return code
  return fault === undefined || fault === 'status' ? null : fault
}

/** How a counter is made: the simulator's API base path (for the recipes), and how it reads the running test's name. */
export interface CounterOptions {
  basePath?: string
  /** The tests running now, for a count told none (in process, tests): default, what a runner's entry said. */
  tests?: () => readonly string[]
}

/**
 * Creates a state's counter. Its keys are bounded by what can be answered:
 * the documented outcomes, and per operation the statuses faults, `Prefer`
 * and the rate limit make (a few dozen); the tests named are at most
 * `MAX_TESTS`, each name at most `MAX_TEST_NAME` characters.
 */
export function createCoverageCounter({ basePath, tests: running = runningTests }: CounterOptions = {}) {
  const slots = slotsByOperation()
  const provoked = new Map<string, ProvokedCount>()
  const calls = new Map<string, number>()
  const tests = createTestAttribution<Slot>()
  let revision = 0
  const countProvoked = (record: JournalRecord, control: Control, code: string | null, empty: boolean, status = record.status) => {
    const operation = record.operation as OperationId
    const id = outcomeId(operation, status, code, empty)
    const key = provokedKey({ control, id })
    const known = provoked.get(key)
    if (known === undefined) provoked.set(key, { id, operation, status, code, control, count: 1 })
    else known.count++
  }
  return {
    /**
     * Counts one request's record (the dispatcher's, once per request): what an operation's rules or controls
     * answered; `names`, the tests running as it arrived, are told the outcome (a slow answer stays its test's).
     */
    count(record: JournalRecord, names: readonly string[] = running()): void {
      const { operation, status, aborted = false, delayed = false } = record
      // Only what reached an operation's rules or controls: not a refused session or a body over the limit.
      if (operation === null || record.answeredBy === undefined || record.answeredBy === 'refused') return
      const control = controlOf(record)
      const code = record.code ?? null
      const empty = status === 200 && record.body === 'empty list'
      revision++
      if (DEPRECATED.has(operation)) calls.set(operation, (calls.get(operation) ?? 0) + 1)
      if (control !== undefined) countProvoked(record, control, provokedCode(record), empty)
      else if (!aborted) {
        const slot = slots
          .get(operation)
          ?.find(({ outcome, empty: isEmpty }) => outcome.status === status && outcome.code === code && isEmpty === empty)
        // An answer no outcome documents (a 500 of a bug) is the simulator's, not the service's: not counted.
        if (slot !== undefined) {
          slot.count++
          tests.add(slot, names)
        }
        // A slow body is the service's answer too, and what the fault made of it (a thrown error or a 204 has none to slow).
        if (record.fault === 'slow-body' && code === null && record.body !== 'none') countProvoked(record, 'fault', 'slow-body', empty)
      }
      // Whatever answered, it waited; a client that gave up meanwhile got nothing (status 0).
      if (delayed && aborted) countProvoked(record, 'latency', 'aborted', false, 0)
      else if (delayed) countProvoked(record, 'latency', control === undefined ? code : provokedCode(record), empty)
    },
    report(sunsetAt: Date): Coverage {
      const deprecated = SPEC_OUTCOMES.deprecated.map((entry) => ({
        ...entry,
        calls: calls.get(entry.operation) ?? 0,
        sunset: sunsetAt.toISOString(),
      }))
      const all = [...slots.values()].flat()
      const counts = new Map(all.map(({ outcome, count }) => [outcome.id, count]))
      return coverageOf(
        counts,
        [...provoked.values()].map((entry) => ({ ...entry })),
        deprecated,
        { ...(basePath === undefined ? {} : { basePath }), ...tests.report(all, (slot) => slot.outcome.id) },
      )
    },
    clear() {
      for (const slot of [...slots.values()].flat()) slot.count = 0
      provoked.clear()
      calls.clear()
      tests.clear()
      revision++
    },
    /** Moves on every count and clear: what a watcher compares. */
    revision: () => revision,
    snapshot(): CoverageSnapshot {
      const outcomes = [...slots.values()].flat().flatMap(({ outcome, count }) => (count === 0 ? [] : [[outcome.id, count] as const]))
      return {
        outcomes: Object.fromEntries(outcomes),
        provoked: [...provoked.values()].map((entry) => ({ ...entry })),
        deprecatedCalls: Object.fromEntries(calls),
      }
    },
    /**
     * Puts back counts a snapshot kept (checked by `coverageSnapshotSchema`): names it does not know refuse it whole.
     * A snapshot keeps no test names: those of now would not match the counts put back, so they go.
     */
    restore(snapshot: CoverageSnapshot): void {
      const byId = new Map([...slots.values()].flat().map((slot) => [slot.outcome.id, slot]))
      const counted = Object.entries(snapshot.outcomes).map(([id, value]) => [byId.get(id), value] as const)
      const called = Object.entries(snapshot.deprecatedCalls)
      if (counted.some(([slot]) => slot === undefined) || called.some(([operation]) => !DEPRECATED.has(operation)))
        throw new RangeError('The coverage names an outcome or a deprecated operation the service does not document.')
      for (const slot of byId.values()) slot.count = 0
      for (const [slot, value] of counted) if (slot !== undefined) slot.count = value
      provoked.clear()
      for (const entry of snapshot.provoked) provoked.set(provokedKey(entry), { ...entry })
      calls.clear()
      for (const [operation, value] of called) calls.set(operation, value)
      tests.clear()
      revision++
    },
  }
}
