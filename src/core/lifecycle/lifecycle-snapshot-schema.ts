import * as v from 'valibot'
import { parseInt64 } from '../int64.js'
import { MAX_ORDERS } from '../scenario/scenario-limits.js'
import type { LifecycleSnapshot } from './order-lifecycle.js'

// Apart from the lifecycle so that only snapshot code loads it: a page's bundle never carries it.

const DAY_MS = 24 * 60 * 60 * 1000
/** Half the range of a `Date`: a start plus every advance stays a date the clock can print. */
const MAX_TIME_MS = 4.32e15
const whole = (max: number) => v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(max))
const orderId = v.pipe(
  v.string(),
  v.check((id) => parseInt64(id) === id, 'an order id must be a canonical int64 decimal string'),
)

/** A lifecycle snapshot from outside (a state file): whole numbers in range, each order changed once, no other key. */
export const lifecycleSnapshotSchema = v.strictObject({
  rule: v.nullable(
    v.pipe(
      v.strictObject({ min: whole(DAY_MS), max: whole(DAY_MS) }),
      v.check((rule) => rule.min <= rule.max, 'rule.min must not be longer than rule.max'),
    ),
  ),
  seed: whole(Number.MAX_SAFE_INTEGER),
  startedAt: whole(MAX_TIME_MS),
  advancedMs: whole(MAX_TIME_MS),
  random: whole(2 ** 32 - 1),
  changes: v.pipe(
    // Each order once: the orders of a scenario, and as many added since.
    v.array(v.strictTuple([orderId, v.nullable(whole(2 * MAX_TIME_MS))])),
    v.maxLength(2 * MAX_ORDERS),
    v.check((changes) => new Set(changes.map(([id]) => id)).size === changes.length, 'each order is changed once'),
  ),
}) satisfies v.GenericSchema<unknown, LifecycleSnapshot>
