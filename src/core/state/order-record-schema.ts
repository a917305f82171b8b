import * as v from 'valibot'
import type { OrderStatus } from '../glossary.js'
import { parseInt64 } from '../int64.js'
import { isDateTime } from '../scenario/date-time.js'
import type { OwnOrderRecord } from './order-store.js'

// Apart from the order store so that only snapshot code loads it: a page's bundle never carries it.

const canonicalId = v.pipe(
  v.string(),
  v.check((id) => parseInt64(id) === id, 'an id must be a canonical int64 decimal string'),
)

/** An own order from outside (a state file): canonical ids, a known status, a whole position; no other key. */
export const ownOrderRecordSchema = v.strictObject({
  id: canonicalId,
  petId: v.nullable(canonicalId),
  quantity: v.nullable(v.pipe(v.number(), v.safeInteger())),
  shipDate: v.nullable(v.pipe(v.string(), v.maxLength(64), v.check(isDateTime, 'shipDate must be an RFC 3339 date-time'))),
  complete: v.nullable(v.boolean()),
  status: v.picklist(['pending', 'shipped', 'cancelled'] satisfies OrderStatus[]),
  position: v.pipe(v.number(), v.safeInteger(), v.minValue(0)),
  removed: v.boolean(),
}) satisfies v.GenericSchema<unknown, OwnOrderRecord>
