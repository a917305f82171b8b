import { parseExactJson } from '../exact-json.js'
import type { JsonValue } from '../glossary.js'
import { type Fail, MAX_ROUTE_BODY_BYTES, MAX_ROUTES, parseRoute } from '../routes/parse-routes.js'
import { createRouteTable, isJsonMediaType, pathSegments, type Route } from '../routes/route-table.js'
import type { ForwardedAnswer } from './forward.js'
import { HEADER_NAME, hopByHop } from './hop-by-hop.js'

/** One forwarded request and what came back. */
export interface RecordedExchange {
  method: string
  /** Path and query under the base, as forwarded: the query is not part of a route. */
  target: string
  answer: Pick<ForwardedAnswer, 'status' | 'headers' | 'body' | 'failure'>
}

/** A route to add, or why the exchange is not one. */
export type RecordDecision = { route: Route } | { skipped: string }

/**
 * Never written: credentials and cookies, headers the transport sets per
 * answer, a `Date` that would be stale forever, and the target's CORS (the
 * simulator answers CORS itself).
 */
const NEVER_RECORDED = new Set(['authorization', 'cookie', 'set-cookie', 'content-length', 'content-encoding', 'date'])
/** Keys shorter than this are not searched for in bodies: they cannot be told from other text (as `verify` redacts). */
const MIN_SEARCHED_KEY = 8
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

/**
 * The headers of an answer that may be written into a scenario: none that
 * carries credentials, cookies, the key (as sent or percent-encoded) or
 * anything the transport sets itself. Names lower-case; undefined when none is left.
 */
export function recordableHeaders(pairs: Iterable<readonly [string, string]>, key?: string): Record<string, string> | undefined {
  const all = [...pairs]
  const connection = all.filter(([name]) => name.toLowerCase() === 'connection').map(([, value]) => value)
  const isHop = hopByHop(connection.length === 0 ? null : connection.join(','))
  const secrets = key === undefined || key === '' ? [] : [key, encodeURIComponent(key)]
  const kept: Record<string, string> = {}
  for (const [name, value] of all) {
    const lower = name.toLowerCase()
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value) || isHop(lower) || NEVER_RECORDED.has(lower)) continue
    if (lower.startsWith('access-control-') || secrets.some((secret) => value.includes(secret))) continue
    Object.defineProperty(kept, lower, {
      value: Object.hasOwn(kept, lower) ? `${kept[lower]}, ${value}` : value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  return Object.keys(kept).length === 0 ? undefined : kept
}

/** The body as a route holds it: JSON as its value, text as a string (sent back under its Content-Type), else why not. */
function recordableBody(body: Uint8Array, contentType: string | undefined): { body?: JsonValue } | { skipped: string } {
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
  if (!json) return { body: text }
  try {
    return { body: parseExactJson(text) as JsonValue }
  } catch {
    return { skipped: 'the body is labelled JSON but is not valid JSON' }
  }
}

/** Whether a body carries the key: such an answer is not recorded at all. */
function carriesKey(body: JsonValue | undefined, key: string | undefined): boolean {
  if (body === undefined || key === undefined || key.length < MIN_SEARCHED_KEY) return false
  const text =
    typeof body === 'string' ? body : JSON.stringify(body, (_, value: unknown) => (typeof value === 'bigint' ? String(value) : value))
  return text.includes(key) || text.includes(encodeURIComponent(key))
}

/**
 * Whether a forwarded answer becomes a route: a status below 500, a body of
 * at most 1 MiB that is JSON or text (or none), a path a route can hold.
 * The route has the answer's status, its recordable headers and its body;
 * it requires a key, as the service's operations do.
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
  if (carriesKey(body.body, key)) return { skipped: 'the body carries the proxy key' }
  const candidate = { method: exchange.method, path, status: answer.status, ...(headers === undefined ? {} : { headers }), ...body }
  const fail: Fail = (_, problem) => {
    throw new Error(problem)
  }
  try {
    return { route: parseRoute(candidate, 'recorded', fail) }
  } catch (error) {
    return { skipped: error instanceof Error ? error.message : String(error) }
  }
}

/**
 * The routes with this exchange's route added, when it is recordable and
 * the first for its method and path (no route answers it yet); otherwise
 * the same list. A full list (1,000 routes) takes no more.
 */
export function recordInto(routes: readonly Route[], exchange: RecordedExchange, key?: string): readonly Route[] {
  if (routes.length >= MAX_ROUTES) return routes
  const decision = recordedRoute(exchange, key)
  if ('skipped' in decision) return routes
  if (createRouteTable(routes).match(decision.route.method, decision.route.path) !== null) return routes
  return [...routes, decision.route]
}
