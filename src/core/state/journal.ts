import type { Int64 } from '../glossary.js'
import { int64Value, type Int64Key } from '../int64.js'
import type { OperationId } from '../operations/registry.js'
import type { InteractionFacts } from '../pact/build-pact.js'
import { createInteractionLedger } from '../pact/interaction-ledger.js'
import type { Given } from '../pact/provider-states.js'

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
  /** Present (true) on the request that found its session dropped when idle and got a fresh one. */
  sessionRecreated?: true
  /** Present (true) on a request forwarded to the proxy target (docs/proxy.md); `status` is what came back. */
  forwarded?: true
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
  /** The request's session had been dropped when idle and was made afresh for it. */
  sessionRecreated?: boolean
  /** It was forwarded to the proxy target. */
  forwarded?: boolean
  /** The service's rules answered it (no fault, no `Prefer`, no rate limit): it belongs in a pact. The fields below are for that pact. */
  inPact?: boolean
  /** What the answer depended on when the request arrived (a cancelled order's status). */
  given?: Given | null
  /** The Authorization header as sent (cut past `MAX_JOURNAL_AUTHORIZATION`). */
  authorization?: string | null
  /** The Error body's code and message of an error answer. */
  code?: string | null
  message?: string | null
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
  /** The requests for a pact, oldest first: those let go by a clear or by the ring (kept once each), then those held now. */
  pactFacts(): { facts: InteractionFacts[]; leftOut: number }
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
  const { time, method, path, status, duration, operation, orderId, sessionRecreated, forwarded } = record
  return {
    time: new Date(time).toISOString(),
    method,
    path,
    status,
    duration,
    operation,
    orderId: orderId === null ? null : int64Value(orderId),
    ...(sessionRecreated === true ? { sessionRecreated } : {}),
    ...(forwarded === true ? { forwarded } : {}),
  }
}

/** A record's pact facts, or undefined when the service's rules did not answer it. */
function factsOf(record: JournalRecord): InteractionFacts | undefined {
  if (record.inPact !== true) return undefined
  const { method, path, status, operation, orderId, given = null, authorization = null, code = null, message = null } = record
  return { method, path, status, operation, orderId, given, authorization, code, message }
}

/** Whether a record is the interaction of `facts`: what the ledger's key is made of. */
function sameInteraction(record: JournalRecord, facts: InteractionFacts): boolean {
  // The ring's records hold null, never undefined, in the optional fields (`stored`).
  return (
    record.path === facts.path &&
    record.status === facts.status &&
    record.method === facts.method &&
    record.orderId === facts.orderId &&
    record.code === facts.code &&
    record.given === facts.given &&
    record.authorization === facts.authorization
  )
}

export const DEFAULT_JOURNAL_SIZE = 1000
/** A longer path is kept cut, with a marker saying how much is missing. */
export const MAX_JOURNAL_PATH = 1024
/** A longer Authorization header is kept cut: no key of a scenario is that long, and a refused one is refused cut too. */
export const MAX_JOURNAL_AUTHORIZATION = 256
/** What one journal may hold, counting each entry as its path plus a fixed cost: entries go oldest first past it. */
export const MAX_JOURNAL_BYTES = 256 * 1024
const ENTRY_BYTES = 128

function boundedAuthorization(header: string | null | undefined): string | null {
  if (header === undefined || header === null) return null
  return header.length <= MAX_JOURNAL_AUTHORIZATION ? header : header.slice(0, MAX_JOURNAL_AUTHORIZATION)
}

function boundedPath(path: string): string {
  return path.length <= MAX_JOURNAL_PATH
    ? path
    : `${path.slice(0, MAX_JOURNAL_PATH)}…[cut: ${path.length - MAX_JOURNAL_PATH} more characters]`
}

/** The ring's record for `entry` (its path and header already bounded): its slot overwritten in place, or a new one for an empty slot. */
function stored(slot: JournalRecord | undefined, entry: JournalRecord, path: string, authorization: string | null): JournalRecord {
  const { inPact = false, given = null, code = null, message = null } = entry
  if (slot === undefined) {
    // One fixed literal shape: the slots are overwritten for every request, and the shape of a
    // spread copy made those writes allocate (peak RSS under load rose; docs/performance.md).
    const { time, method, status, duration, operation, orderId, sessionRecreated = false, forwarded = false } = entry
    return {
      time,
      method,
      path,
      status,
      duration,
      operation,
      orderId,
      sessionRecreated,
      forwarded,
      inPact,
      given,
      authorization,
      code,
      message,
    }
  }
  // Overwritten in place: a new object per request would live a trip round
  // the ring, long enough to be promoted to the old space under load. A string
  // equal to the one held (a repeated path or key) is not stored: the request's
  // own copy then dies young instead of being promoted with the slot. A method and a code are constants.
  slot.time = entry.time
  slot.method = entry.method
  if (slot.path !== path) slot.path = path
  slot.status = entry.status
  slot.duration = entry.duration
  slot.operation = entry.operation
  if (slot.orderId !== entry.orderId) slot.orderId = entry.orderId
  slot.sessionRecreated = entry.sessionRecreated ?? false
  slot.forwarded = entry.forwarded ?? false
  slot.inPact = inPact
  slot.given = given
  if (slot.authorization !== authorization) slot.authorization = authorization
  slot.code = code
  if (slot.message !== message) slot.message = message
  return slot
}

/**
 * Creates an empty journal that keeps the last `capacity` entries (0 keeps
 * none), and no more than `MAX_JOURNAL_BYTES` of them. What a pact needs of
 * the entries it lets go is kept once per interaction, in a ledger bounded
 * in bytes of its own (`MAX_LEDGER_BYTES`).
 */
export function createJournal(capacity: number = DEFAULT_JOURNAL_SIZE): JournalWriter {
  // A ring of `size` records starting at `start`; slots are reused in place.
  const ring: JournalRecord[] = []
  let start = 0
  let size = 0
  let bytes = 0
  let recorded = 0
  let cleared = 0
  const ledger = createInteractionLedger()
  const at = (index: number) => ring[(start + index) % capacity] as JournalRecord
  const cost = (record: JournalRecord) =>
    record.path.length + (record.authorization?.length ?? 0) + (record.message?.length ?? 0) + ENTRY_BYTES
  // The facts the ledger last held: a record of the same interaction (a load repeats one) is let go without building its key.
  let lastHeld: InteractionFacts | undefined
  /** Lets the oldest entry go; a pact still has its interaction. */
  const dropOldest = () => {
    const oldest = at(0)
    if (oldest.inPact === true && (lastHeld === undefined || !sameInteraction(oldest, lastHeld))) {
      const facts = factsOf(oldest) as InteractionFacts
      if (ledger.keep(facts)) lastHeld = facts
    }
    bytes -= cost(oldest)
    start = (start + 1) % capacity
    size--
  }
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
    pactFacts() {
      const facts = [...ledger.facts()]
      for (let index = 0; index < size; index++) {
        const held = factsOf(at(index))
        if (held !== undefined) facts.push(held)
      }
      return { facts, leftOut: ledger.leftOut() }
    },
    clear() {
      cleared++
      for (let index = 0; index < size; index++) {
        const facts = factsOf(at(index))
        if (facts !== undefined) ledger.keep(facts)
      }
      ring.length = 0
      start = 0
      size = 0
      bytes = 0
    },
    record(entry) {
      recorded++
      const path = boundedPath(entry.path)
      const authorization = boundedAuthorization(entry.authorization)
      if (capacity === 0) {
        // Nothing is held, but a pact still gets the interaction.
        const facts = factsOf({ ...entry, path, authorization })
        if (facts !== undefined) ledger.keep(facts)
        return
      }
      if (size === capacity) dropOldest()
      const needed = path.length + (authorization?.length ?? 0) + (entry.message?.length ?? 0) + ENTRY_BYTES
      while (size > 0 && bytes + needed > MAX_JOURNAL_BYTES) dropOldest()
      const index = (start + size) % capacity
      ring[index] = stored(ring[index], entry, path, authorization)
      size++
      bytes += needed
    },
  }
}
