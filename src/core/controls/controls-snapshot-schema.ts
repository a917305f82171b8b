import * as v from 'valibot'
import { parseInt64 } from '../int64.js'
import { OPERATION_IDS } from '../operations/registry.js'
import type { ControlsSnapshot } from './controls.js'
import { type Fault, FaultShape, MAX_FAULTS, parseFault } from './faults.js'
import { MAX_LATENCY_MS, parseLatencySettings } from './latency.js'
import { parseRateLimit, RateLimitShape } from './rate-limit.js'

// Apart from the controls so that only snapshot code loads it: a page's bundle never carries it.

const count = (min: number) => v.pipe(v.number(), v.safeInteger(), v.minValue(min))

/** Whether `parseFault` takes the fault's input as it was given (its status with its kind, times or probability...). */
function takesInput({ id: _id, remaining: _remaining, ...input }: v.InferOutput<typeof FaultFields>): boolean {
  try {
    parseFault(input)
    return true
  } catch {
    return false
  }
}

const FaultFields = v.strictObject({
  ...FaultShape.entries,
  // Canonical, as a fault keeps it: a safe integer or the decimal string of an int64.
  orderId: v.optional(
    v.union([
      count(Number.MIN_SAFE_INTEGER),
      v.pipe(
        v.string(),
        v.check((id) => parseInt64(id) === id, 'a canonical int64'),
      ),
    ]),
  ),
  id: count(1),
  remaining: v.nullable(count(1)),
})

/** A fault as a snapshot lists it, from outside (a state file): one `parseFault` takes, with what is left of its `times`. */
const faultSnapshotSchema = v.pipe(
  FaultFields,
  v.check(takesInput, 'a fault must be one the simulator takes'),
  v.check(
    (fault) => (fault.remaining === null ? fault.times === undefined : fault.times !== undefined && fault.remaining <= fault.times),
    'remaining goes with times, and is at most times',
  ),
) satisfies v.GenericSchema<unknown, Fault>

/** Whether `parse` takes `value` (the parsers the admin API and the options use, so a snapshot takes no more). */
function takenBy(parse: (value: unknown) => unknown, value: unknown): boolean {
  try {
    parse(value)
    return true
  } catch {
    return false
  }
}

const whole = (max: number) => v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(max))
/** Latency as `controls.latency()` gives it: ranges by known operation (or `default`), each `{ min, max }` in ms. */
const LatencyRangesShape = v.strictObject(
  Object.fromEntries(
    ['default', ...OPERATION_IDS].map((name) => [
      name,
      v.optional(v.strictObject({ min: whole(MAX_LATENCY_MS), max: whole(MAX_LATENCY_MS) })),
    ]),
  ),
)

/** Controls from outside (a state file): each part as the admin API would take it; fault ids unique, below the next. */
export const controlsSnapshotSchema = v.pipe(
  v.strictObject({
    latency: v.nullable(
      v.pipe(
        LatencyRangesShape,
        v.check((ranges) => takenBy(parseLatencySettings, ranges), 'latency ranges of at most 60000 ms'),
      ),
    ),
    faults: v.pipe(v.array(faultSnapshotSchema), v.maxLength(MAX_FAULTS)),
    nextFaultId: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
    rateLimit: v.nullable(
      v.pipe(
        v.strictObject(RateLimitShape.options[1].entries),
        v.check((limit) => takenBy(parseRateLimit, limit), 'a rate limit'),
      ),
    ),
  }),
  v.check(
    ({ faults, nextFaultId }) =>
      new Set(faults.map((fault) => fault.id)).size === faults.length && faults.every((fault) => fault.id < nextFaultId),
    'fault ids are unique and below nextFaultId',
  ),
) satisfies v.GenericSchema<unknown, ControlsSnapshot>
