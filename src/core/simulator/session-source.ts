import { quote } from '../quote-value.js'
import type { SimRequest } from '../reply.js'
import type { SessionHeader } from '../state/journal.js'
import { ValidationError } from '../validation-error.js'
import { SESSION_HEADER, SESSION_ID } from './session-id.js'

export type { SessionHeader }

/** A session a request names, and which header named it; its id is not checked yet. */
export interface NamedSession {
  readonly id: string
  readonly from: SessionHeader
}

/** The W3C Baggage list member that names a session (keys are case-sensitive). */
export const BAGGAGE_KEY = 'sim-session'
// OpenTelemetry's extractor bounds (W3C Baggage §Limits): so one hop through it changes nothing.
/** At most this many list members are read. */
export const MAX_BAGGAGE_MEMBERS = 180
/** A longer member is skipped. */
export const MAX_BAGGAGE_MEMBER = 4096
/** Members past this many characters of the header are not read. */
export const MAX_BAGGAGE_CHARS = 8192

const isOws = (code: number) => code === 0x20 || code === 0x09

/**
 * The session a request names: X-Sim-Session when it is sent and not empty
 * (it wins), else a `sim-session` member of its `baggage` header; null for
 * none. A baggage header without the key is not parsed at all.
 */
export function sessionNamedBy(request: Pick<SimRequest, 'header'>): NamedSession | null {
  const id = request.header(SESSION_HEADER)
  if (id !== null && id !== '') return { id, from: SESSION_HEADER }
  const baggage = request.header('baggage')
  if (baggage === null || !baggage.includes(BAGGAGE_KEY)) return null
  const member = baggageSessionId(baggage)
  return member === null ? null : { id: member, from: 'baggage' }
}

/**
 * The value of the last `sim-session` member of a W3C Baggage string,
 * percent-decoded (OpenTelemetry encodes values), or null when none is read.
 * Malformed members are skipped, never an error: a receiver may drop them
 * (W3C Baggage §Mutating baggage). Properties (`;p=1`) are opaque and ignored.
 */
export function baggageSessionId(header: string): string | null {
  // Nothing past the bound is read: each scan below stops within it, however long the header.
  const text = header.length > MAX_BAGGAGE_CHARS ? header.slice(0, MAX_BAGGAGE_CHARS + 1) : header
  let found: string | null = null
  let start = 0
  for (let members = 0; members < MAX_BAGGAGE_MEMBERS && start <= text.length; members++) {
    const comma = text.indexOf(',', start)
    const end = comma === -1 ? text.length : comma
    if (end > MAX_BAGGAGE_CHARS) break
    if (end - start <= MAX_BAGGAGE_MEMBER) found = memberValue(text, start, end) ?? found
    start = end + 1
  }
  if (found === null || !found.includes('%')) return found
  try {
    return decodeURIComponent(found)
  } catch {
    // A bad escape (%ZZ): kept as sent, which is no session id, so the request is told so.
    return found
  }
}

/** Where `char` first is in `text[from, to)`, else `to`. */
function indexWithin(text: string, char: number, from: number, to: number): number {
  for (let index = from; index < to; index++) if (text.charCodeAt(index) === char) return index
  return to
}

/** The raw value of the member `text[start, end)` when its key is `sim-session`, else null. */
function memberValue(text: string, start: number, end: number): string | null {
  const equals = indexWithin(text, 0x3d, start, end)
  if (equals === end) return null
  let keyStart = start
  let keyEnd = equals
  while (keyStart < keyEnd && isOws(text.charCodeAt(keyStart))) keyStart++
  while (keyEnd > keyStart && isOws(text.charCodeAt(keyEnd - 1))) keyEnd--
  if (keyEnd - keyStart !== BAGGAGE_KEY.length || !text.startsWith(BAGGAGE_KEY, keyStart)) return null
  // The value ends at its first property (`;p=1`), which is opaque to the simulator.
  let valueStart = equals + 1
  let valueEnd = indexWithin(text, 0x3b, valueStart, end)
  while (valueStart < valueEnd && isOws(text.charCodeAt(valueStart))) valueStart++
  while (valueEnd > valueStart && isOws(text.charCodeAt(valueEnd - 1))) valueEnd--
  return text.slice(valueStart, valueEnd)
}

/**
 * A session error of a session the baggage header named, told as such: the
 * member, not X-Sim-Session, is what the client must fix.
 */
export function fromBaggage(error: ValidationError, id: string): ValidationError {
  const message = SESSION_ID.test(id)
    ? `${error.message} The baggage header's ${BAGGAGE_KEY} member named session ${quote(id)}.`
    : `Invalid session id ${quote(id)} in the baggage header's ${BAGGAGE_KEY} member: use 1 to 128 letters, digits and . _ : - characters.`
  return new ValidationError('baggage', message)
}
