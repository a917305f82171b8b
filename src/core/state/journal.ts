import type { Int64 } from '../glossary.js'
import { int64Value, type Int64Key } from '../int64.js'
import type { OperationId } from '../operations/registry.js'
import type { InteractionFacts } from '../pact/build-pact.js'
import { createInteractionLedger } from '../pact/interaction-ledger.js'
import type { Given } from '../pact/provider-states.js'
import type { Fault } from '../controls/faults.js'

/** Which header named a request's session: `X-Sim-Session`, or a `sim-session` member of W3C `baggage`. */
export type SessionHeader = 'X-Sim-Session' | 'baggage'

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
  /** Present on a request that named a session: the header that named it (X-Sim-Session, or the W3C `baggage` header's `sim-session` member). */
  sessionHeader?: SessionHeader
  /** Present (true) on a request forwarded to the proxy target (docs/proxy.md); `status` is what came back. */
  forwarded?: true
}

/**
 * Who answered a request (dispatcher.ts): one of the simulator's controls, the operation's rules, a
 * scenario's route or the proxy target; `refused` when its session, body or path was refused before
 * any of them, `unknown` for the 404 or 405 of a path nothing takes.
 */
export type AnsweredBy = 'fault' | 'prefer' | 'rate-limit' | 'operation' | 'route' | 'proxy' | 'refused' | 'unknown'

/**
 * One request and its answer, recorded once by the dispatcher: the journal shows it, a pact and
 * coverage read it (the cheap raw values, turned into a `JournalEntry` only when read).
 */
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
  /** The header that named the request's session; null (or absent) when it named none. */
  sessionHeader?: SessionHeader | null
  /** Who answered; absent for what a transport answered itself (a 404 outside the API, a body refused) and for a bug's 500. */
  answeredBy?: AnsweredBy | undefined
  /** The kind of the fault that fired for it, if one did. */
  fault?: Fault['kind'] | undefined
  /** It waited for latency set with the controls; `aborted`: its client gave up meanwhile, and got nothing. */
  delayed?: boolean
  aborted?: boolean
  /** Its answer's body: none, the empty list (a 200 `[]`), or some other. */
  body?: 'none' | 'empty list' | 'some'
  /** The Error code of an error answered (thrown by a rule or control); null otherwise. */
  code?: string | null
  /** For a pact's requests only (`inPact`): what the answer depended on as the request arrived (a cancelled order's status). */
  given?: Given | null
  /** For a pact's requests only: the Authorization header as sent (cut past `MAX_JOURNAL_AUTHORIZATION`). */
  authorization?: string | null
  /** For a pact's requests only: the Error body's message of an error answer. */
  message?: string | null
}

/** Whether the service's rules answered a request unchanged by a fault: a pact holds it. */
export const inPact = (record: JournalRecord): boolean => record.answeredBy === 'operation' && record.fault === undefined

/** The most recent requests, oldest first; a ring, so memory stays bounded on a long run. */
export interface RequestJournal {
  readonly capacity: number
  entries(): JournalEntry[]
  clear(): void
}

/** The journal as the transports see it: they record what they answered. */
export type JournalWriter = ReturnType<typeof createJournal>

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
  const { time, method, path, status, duration, operation, orderId, sessionRecreated, sessionHeader } = record
  return {
    time: new Date(time).toISOString(),
    method,
    path,
    status,
    duration,
    operation,
    orderId: orderId === null ? null : int64Value(orderId),
    ...(sessionRecreated === true ? { sessionRecreated } : {}),
    ...(typeof sessionHeader === 'string' ? { sessionHeader } : {}),
    // What the proxy target answered: the proxy throws only what it refuses to send (the dispatcher records that as refused).
    ...(record.answeredBy === 'proxy' ? { forwarded: true as const } : {}),
  }
}

/** A record's pact facts, or undefined when the service's rules did not answer it. */
function factsOf(record: JournalRecord): InteractionFacts | undefined {
  if (!inPact(record)) return undefined
  const { method, path, status, operation, orderId, given = null, authorization = null, code = null, message = null } = record
  return { method, path, status, operation, orderId, given, authorization, code, message }
}

/** Whether a record is the interaction of `facts`: what the ledger's key is made of. */
function sameInteraction(record: JournalRecord, facts: InteractionFacts): boolean {
  // A pact's records hold null, never undefined, in these fields (the dispatcher's `settle`).
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

/**
 * `entry` as the ring holds it (its path and key already bounded): written over the slot's record in
 * place, or a new record while the ring fills, always with every field in one order. A string equal to
 * the one the slot holds (a repeated path or key) is not stored again. So a journal under load holds
 * what its ring holds and keeps nothing per request: without this, peak RSS under load was 15 MiB
 * higher (docs/performance.md).
 */
function stored(slot: JournalRecord | undefined, entry: JournalRecord, path: string, authorization: string | null): JournalRecord {
  const record = slot ?? ({} as JournalRecord)
  record.time = entry.time
  record.method = entry.method
  if (record.path !== path) record.path = path
  record.status = entry.status
  record.duration = entry.duration
  record.operation = entry.operation
  if (record.orderId !== entry.orderId) record.orderId = entry.orderId
  record.sessionRecreated = entry.sessionRecreated ?? false
  record.sessionHeader = entry.sessionHeader ?? null
  record.answeredBy = entry.answeredBy
  record.fault = entry.fault
  record.delayed = entry.delayed ?? false
  record.aborted = entry.aborted ?? false
  record.body = entry.body ?? 'some'
  record.code = entry.code ?? null
  record.given = entry.given ?? null
  if (record.authorization !== authorization) record.authorization = authorization
  record.message = entry.message ?? null
  return record
}

/**
 * Creates an empty journal that keeps the last `capacity` entries (0 keeps
 * none), and no more than `MAX_JOURNAL_BYTES` of them. What a pact needs of
 * the entries it lets go is kept once per interaction, in a ledger bounded
 * in bytes of its own (`MAX_LEDGER_BYTES`).
 */
export function createJournal(capacity: number = DEFAULT_JOURNAL_SIZE) {
  // A ring of `size` records starting at `start`.
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
    if (inPact(oldest) && (lastHeld === undefined || !sameInteraction(oldest, lastHeld))) {
      const facts = factsOf(oldest) as InteractionFacts
      if (ledger.keep(facts)) lastHeld = facts
    }
    bytes -= cost(oldest)
    start = (start + 1) % capacity
    size--
  }
  return {
    capacity,
    entries(): JournalEntry[] {
      return Array.from({ length: size }, (_, index) => toEntry(at(index)))
    },
    /** The entries whose record `matches`, oldest first. */
    select(matches: (record: JournalRecord) => boolean): JournalEntry[] {
      const selected: JournalEntry[] = []
      for (let index = 0; index < size; index++) if (matches(at(index))) selected.push(toEntry(at(index)))
      return selected
    },
    /** Counts every record and clear, so a watcher can tell what is new without reading the entries. */
    revision: () => ({ recorded, cleared }),
    /** The requests for a pact, oldest first: those let go by a clear or by the ring (kept once each), then those held now. */
    pactFacts(): { facts: InteractionFacts[]; leftOut: number } {
      const facts = [...ledger.facts()]
      for (let index = 0; index < size; index++) {
        const held = factsOf(at(index))
        if (held !== undefined) facts.push(held)
      }
      return { facts, leftOut: ledger.leftOut() }
    },
    clear(): void {
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
    record(entry: JournalRecord): void {
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
