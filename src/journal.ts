import type { Int64 } from './glossary.js'
import { int64Value, type Int64Key } from './int64.js'
import type { OperationId } from './routes.js'

/** One request the simulator answered. */
export interface JournalEntry {
  /** When the request arrived (ISO 8601). */
  time: string
  method: string
  /** The URL path and query, as sent. */
  path: string
  status: number
  /** How long the simulator took to answer, in milliseconds. */
  duration: number
  /** The operation the request reached, or `null` for a path that is none. */
  operation: OperationId | null
  /** The order a cancel acted on (a valid int64 path id), else `null`. */
  orderId: Int64 | null
}

/** What is stored per request: the cheap raw values, turned into a `JournalEntry` only when read. */
export interface JournalRecord {
  /** Milliseconds since the epoch. */
  time: number
  method: string
  path: string
  status: number
  duration: number
  operation: OperationId | null
  orderId: Int64Key | null
}

/** The most recent requests, oldest first; a ring, so memory stays bounded on a long run. */
export interface RequestJournal {
  readonly capacity: number
  entries(): JournalEntry[]
  clear(): void
  record(entry: JournalRecord): void
}

function toEntry(record: JournalRecord): JournalEntry {
  return {
    ...record,
    time: new Date(record.time).toISOString(),
    orderId: record.orderId === null ? null : int64Value(record.orderId),
  }
}

export const DEFAULT_JOURNAL_SIZE = 1000

/** Creates an empty journal that keeps the last `capacity` entries (0 keeps none). */
export function createJournal(capacity: number = DEFAULT_JOURNAL_SIZE): RequestJournal {
  const ring: JournalRecord[] = []
  let next = 0
  return {
    capacity,
    entries() {
      return (ring.length < capacity ? ring : [...ring.slice(next), ...ring.slice(0, next)]).map(toEntry)
    },
    clear() {
      ring.length = 0
      next = 0
    },
    record(entry) {
      if (capacity === 0) return
      if (ring.length < capacity) {
        ring.push(entry)
        return
      }
      // The oldest slot is overwritten in place. Under load, a new record per
      // request would live as long as the ring takes to come round (tens of
      // ms): long enough for V8 to promote it to the old space, where records
      // piled up until a full collection (old space grew 7 MB/s in the bench).
      // A string equal to the one already held is not kept, for the same reason.
      const slot = ring[next] as JournalRecord
      slot.time = entry.time
      slot.method = entry.method
      if (slot.path !== entry.path) slot.path = entry.path
      slot.status = entry.status
      slot.duration = entry.duration
      slot.operation = entry.operation
      if (slot.orderId !== entry.orderId) slot.orderId = entry.orderId
      next = (next + 1) % capacity
    },
  }
}
