import { detached } from '../detached-string.js'
import type { Int64 } from '../glossary.js'
import { int64Value, type Int64Key } from '../int64.js'
import type { OperationId } from '../operations/registry.js'

/** One request the simulator answered. */
export interface JournalEntry {
  /** When the request arrived (ISO 8601). */
  time: string
  method: string
  /** The URL path and query, as sent. */
  path: string
  /** The HTTP status answered; 0 when none was (a `network` fault dropped the connection, a `hang` fault never answered). */
  status: number
  /** How long the simulator took to answer, in milliseconds. */
  duration: number
  /** The operation the request reached, or `null` for a path that is none. */
  operation: OperationId | null
  /** The order a cancel acted on (a valid int64 path id), else `null`. */
  orderId: Int64 | null
  /** Present (true) on the request that found its session dropped (evicted or idle) and got a fresh one. */
  sessionRecreated?: true
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
  /** The request's session had been dropped (evicted or idle) and was made afresh for it. */
  sessionRecreated?: boolean
}

/** The most recent requests, oldest first; a ring, so memory stays bounded on a long run. */
export interface RequestJournal {
  readonly capacity: number
  entries(): JournalEntry[]
  clear(): void
}

/** The journal as the transports see it: they record what they answered. */
export interface JournalWriter extends RequestJournal {
  record(entry: JournalRecord): void
  /** The entries whose record `matches`, oldest first. */
  select(matches: (record: JournalRecord) => boolean): JournalEntry[]
  /** Counts every record and clear, so a watcher can tell what is new without reading the entries. */
  revision(): { recorded: number; cleared: number }
}

/** When a request arrived: the wall clock for the entry, the monotonic one for its duration. */
export interface Arrival {
  time: number
  started: number
}

export function arrival(): Arrival {
  return { time: Date.now(), started: performance.now() }
}

/** Milliseconds since `started`, to the microsecond. */
export function elapsedSince(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000
}

function toEntry(record: JournalRecord): JournalEntry {
  const { sessionRecreated, ...rest } = record
  return {
    ...rest,
    time: new Date(record.time).toISOString(),
    orderId: record.orderId === null ? null : int64Value(record.orderId),
    ...(sessionRecreated === true ? { sessionRecreated } : {}),
  }
}

export const DEFAULT_JOURNAL_SIZE = 1000
/** A longer path is kept cut, with a marker saying how much is missing. */
export const MAX_JOURNAL_PATH = 1024
/** What one journal may hold, counting each entry as its path plus a fixed cost: entries go oldest first past it. */
export const MAX_JOURNAL_BYTES = 256 * 1024
const ENTRY_BYTES = 128

function boundedPath(path: string): string {
  return path.length <= MAX_JOURNAL_PATH
    ? path
    : detached(`${path.slice(0, MAX_JOURNAL_PATH)}…[cut: ${path.length - MAX_JOURNAL_PATH} more characters]`)
}

/**
 * Creates an empty journal that keeps the last `capacity` entries (0 keeps
 * none), and no more than `MAX_JOURNAL_BYTES` of them.
 */
export function createJournal(capacity: number = DEFAULT_JOURNAL_SIZE): JournalWriter {
  // A ring of `size` records starting at `start`; slots are reused in place.
  const ring: JournalRecord[] = []
  let start = 0
  let size = 0
  let bytes = 0
  let recorded = 0
  let cleared = 0
  const at = (index: number) => ring[(start + index) % capacity] as JournalRecord
  const cost = (record: JournalRecord) => record.path.length + ENTRY_BYTES
  return {
    capacity,
    entries() {
      return Array.from({ length: size }, (_, index) => toEntry(at(index)))
    },
    select(matches) {
      const selected: JournalEntry[] = []
      for (let index = 0; index < size; index++) if (matches(at(index))) selected.push(toEntry(at(index)))
      return selected
    },
    revision: () => ({ recorded, cleared }),
    clear() {
      cleared++
      ring.length = 0
      start = 0
      size = 0
      bytes = 0
    },
    record(entry) {
      recorded++
      if (capacity === 0) return
      const path = boundedPath(entry.path)
      if (size === capacity) {
        bytes -= cost(at(0))
        start = (start + 1) % capacity
        size--
      }
      while (size > 0 && bytes + path.length + ENTRY_BYTES > MAX_JOURNAL_BYTES) {
        bytes -= cost(at(0))
        start = (start + 1) % capacity
        size--
      }
      const index = (start + size) % capacity
      const slot = ring[index]
      if (slot === undefined) {
        // One fixed literal shape: the slots are overwritten for every request, and the shape of a
        // spread copy made those writes allocate (peak RSS under load rose; docs/performance.md).
        const { time, method, status, duration, operation, orderId, sessionRecreated = false } = entry
        ring[index] = { time, method, path, status, duration, operation, orderId, sessionRecreated }
      } else {
        // Overwritten in place: a new object per request would live a trip round
        // the ring, long enough to be promoted to the old space under load.
        slot.time = entry.time
        slot.method = entry.method
        if (slot.path !== path) slot.path = path
        slot.status = entry.status
        slot.duration = entry.duration
        slot.operation = entry.operation
        if (slot.orderId !== entry.orderId) slot.orderId = entry.orderId
        slot.sessionRecreated = entry.sessionRecreated ?? false
      }
      size++
      bytes += path.length + ENTRY_BYTES
    },
  }
}
