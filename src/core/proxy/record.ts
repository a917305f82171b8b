import { parseExactJsonFile } from '../exact-json.js'
import type { JsonValue } from '../glossary.js'
import { jsonText } from '../json-text.js'
import type { RouteBook } from '../routes/route-book.js'
import { type Fail, MAX_ROUTE_BODY_BYTES, MAX_ROUTES, parseRoute } from '../routes/parse-routes.js'
import { pathSegments } from '../routes/route-path.js'
import { type HeldRoute, isJsonMediaType, type RawBody } from '../routes/route-table.js'
import type { ForwardedAnswer } from './forward.js'
import { HEADER_TOKEN, HEADER_VALUE, hopByHop } from '../http-headers.js'

/** One forwarded request and what came back. */
export interface RecordedExchange {
  method: string
  /** Path and query under the base, as forwarded: the query is not part of a route. */
  target: string
  answer: Pick<ForwardedAnswer, 'status' | 'headers' | 'body' | 'failure'>
}

/** A route to add (a body held as its bytes, in `raw`), or why the exchange is not one. */
export type RecordDecision = { route: HeldRoute } | { skipped: string }

/**
 * Never written: credentials and cookies, headers the transport sets per
 * answer, a `Date` that would be stale forever, the target's CORS (the
 * simulator answers CORS itself) and the sandboxing policy, which every
 * route's answer gets anew (route-table.ts).
 */
const NEVER_RECORDED = new Set([
  'authorization',
  'cookie',
  'set-cookie',
  'content-length',
  'content-encoding',
  'date',
  'content-security-policy',
])
/** Keys shorter than this are not searched for in bodies: they cannot be told from other text (as `verify` redacts). */
const MIN_SEARCHED_KEY = 8

/** The key as it may show in a header: as sent, and percent-encoded (none without a key). */
function secretsOf(key: string | undefined): string[] {
  return key === undefined || key === '' ? [] : [key, encodeURIComponent(key)]
}

/**
 * The headers of an answer that may be written into a scenario: none that
 * carries credentials, cookies, the key (as sent or percent-encoded, in its
 * name or its value) or anything the transport sets itself. Names
 * lower-case; undefined when none is left.
 */
export function recordableHeaders(pairs: Iterable<readonly [string, string]>, key?: string): Record<string, string> | undefined {
  const all = [...pairs]
  const connection = all.filter(([name]) => name.toLowerCase() === 'connection').map(([, value]) => value)
  const isHop = hopByHop(connection.length === 0 ? null : connection.join(','))
  const secrets = secretsOf(key)
  const kept: Record<string, string> = {}
  for (const [name, value] of all) {
    const lower = name.toLowerCase()
    if (!HEADER_TOKEN.test(name) || !HEADER_VALUE.test(value) || isHop(lower) || NEVER_RECORDED.has(lower)) continue
    // A name is compared in lower case: Fetch gives names so, whatever the case the target wrote.
    const carries = secrets.some((secret) => value.includes(secret) || lower.includes(secret.toLowerCase()))
    if (lower.startsWith('access-control-') || carries) continue
    Object.defineProperty(kept, lower, {
      value: Object.hasOwn(kept, lower) ? `${kept[lower]}, ${value}` : value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return Object.keys(kept).length === 0 ? undefined : kept
}

/** A body held as its bytes: answered as they are, read as a value only when shown. */
function rawBody(bytes: Uint8Array, json: boolean): RawBody {
  return {
    bytes,
    value: () => {
      const text = new TextDecoder().decode(bytes)
      return json ? (parseExactJsonFile(text) as JsonValue) : text
    },
  }
}

type BodyCheck = { raw?: RawBody; value?: JsonValue; text?: string } | { skipped: string }

/**
 * The body as a route holds it, its bytes copied (they are no longer the answer's), with its value and
 * text for the checks that follow, or why it is not recorded. The value is read once here (which
 * refuses text that is not JSON exactly as a load of the saved file would) and then dropped.
 */
function recordableBody(body: Uint8Array, contentType: string | undefined): BodyCheck {
  if (body.length === 0) return {}
  if (body.length > MAX_ROUTE_BODY_BYTES) return { skipped: `the body is ${body.length} bytes, over ${MAX_ROUTE_BODY_BYTES} (1 MiB)` }
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  const json = isJsonMediaType(type)
  if (!json && !type.startsWith('text/')) return { skipped: `the body is neither JSON nor text (Content-Type: ${type || 'none'})` }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    return { skipped: 'the body is not UTF-8 text' }
  }
  const raw = rawBody(new Uint8Array(body), json)
  if (!json) return { raw, value: text, text }
  try {
    return { raw, value: parseExactJsonFile(text) as JsonValue, text }
  } catch {
    return { skipped: 'the body is labelled JSON but is not valid JSON' }
  }
}

/** Whether a body carries the key, as it came or as it would be saved (escapes read): such an answer is not recorded at all. */
function carriesKey(text: string | undefined, value: JsonValue | undefined, key: string | undefined): boolean {
  if (text === undefined || key === undefined || key.length < MIN_SEARCHED_KEY) return false
  const has = (written: string) => secretsOf(key).some((secret) => written.includes(secret))
  return has(text) || (text.includes('\\') && has(jsonText(value)))
}

/**
 * Whether a forwarded answer becomes a route: a status below 500, a body of
 * at most 1 MiB that is JSON or text (or none), a path a route can hold.
 * The route has the answer's status, its recordable headers and its body
 * as the bytes that came (`raw`, never parsed to keep); it requires a key,
 * as the service's operations do.
 */
export function recordedRoute(exchange: RecordedExchange, key?: string): RecordDecision {
  const { answer } = exchange
  if (answer.failure !== undefined) return { skipped: `the target gave no answer (${answer.failure})` }
  if (answer.status >= 500) return { skipped: `status ${answer.status} is not recorded (500 and above)` }
  const segments = pathSegments(exchange.target)
  if (segments.some((segment) => /[{}]/.test(segment))) return { skipped: 'the path holds "{" or "}", which a route reads as a parameter' }
  const path = `/${segments.join('/')}`
  const headers = recordableHeaders(Object.entries(answer.headers), key)
  const body = recordableBody(answer.body, answer.headers['content-type'])
  if ('skipped' in body) return body
  if (carriesKey(body.text, body.value, key)) return { skipped: 'the body carries the proxy key' }
  const candidate = { method: exchange.method, path, status: answer.status, ...(headers === undefined ? {} : { headers }) }
  const fail: Fail = (_, problem) => {
    throw new Error(problem)
  }
  try {
    // Checked with its value, as a scenario's route would be (within 1 MiB as JSON, none on HEAD or 204); kept with its bytes.
    const { body: _checked, ...route } = parseRoute(
      { ...candidate, ...(body.value === undefined ? {} : { body: body.value }) },
      'recorded',
      fail,
    )
    return { route: body.raw === undefined ? route : { ...route, raw: body.raw } }
  } catch (error) {
    return { skipped: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * Records this exchange's route in `book` when it is recordable; the book
 * keeps the first per method and path, within its bounds. Returns whether it was added.
 */
export function recordInto(book: RouteBook, exchange: RecordedExchange, key?: string): boolean {
  // A full book, or one that answers this already, takes no more: the body is not even read.
  if (book.list().length >= MAX_ROUTES || !('allow' in book.match(exchange.method, exchange.target))) return false
  const decision = recordedRoute(exchange, key)
  return 'route' in decision && book.add(decision.route)
}
