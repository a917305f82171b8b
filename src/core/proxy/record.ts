import { parseExactJsonFile } from '../exact-json.js'
import type { JsonValue } from '../glossary.js'
import { jsonText } from '../json-text.js'
import { readApiPath } from '../operations/api-path.js'
import type { RouteBook } from '../routes/route-book.js'
import { baseRepeated, type Fail, MAX_ROUTE_BODY_BYTES, MAX_ROUTES, parseRoute } from '../routes/parse-routes.js'
import { pathSegments, type Route, sameQuery } from '../routes/route-path.js'
import { longer, MAX_QUERY_NAME, MAX_QUERY_NAMES, MAX_QUERY_VALUE } from '../routes/route-schema.js'
import { type HeldRoute, isJsonMediaType, OPERATION_TABLE, type RawBody } from '../routes/route-table.js'
import type { ForwardedAnswer } from './forward.js'
import { HEADER_TOKEN, HEADER_VALUE, hopByHop } from '../http-headers.js'

/** One forwarded request and what came back. */
export interface RecordedExchange {
  method: string
  /** Path and query under the base, as forwarded: the route keeps the query's parameters (recordedQuery). */
  target: string
  answer: Pick<ForwardedAnswer, 'status' | 'headers' | 'body' | 'failure'>
}

/** An answer to make a route of, as recording (a forwarded answer) and import-har (a HAR entry) both give it. */
export interface AnswerToRecord {
  method: string
  /** Path and query under the base. */
  target: string
  status: number
  headers: Iterable<readonly [string, string]>
  contentType: string | undefined
  body: Uint8Array
}

/** What a skip is counted as in a summary (`skipped 3: 1 not JSON, 1 image, 1 server error`): a few words each. */
export type SkipCategory =
  | 'no answer'
  | 'server error'
  | 'image'
  | 'binary'
  | 'not JSON'
  | 'too large'
  | 'query too large'
  | 'query not held'
  | 'spec operation'
  | 'carries the key'
  | 'not a route'

/** A route to add (a body held as its bytes, in `raw`), or why the exchange is not one: a sentence and its category. */
export type RecordDecision = { route: HeldRoute } | { skipped: string; category: SkipCategory }

/** What must never be written, beside the fixed rules: the proxy key, and (import-har) any credential the HAR carries. */
export interface RecordSecrets {
  key?: string | undefined
  /** Whether a query value holds a secret; import-har's credentials of the whole HAR. */
  holdsSecret?: (text: string) => boolean
  /** The API base ("/v1"; "" at the root): a path that repeats it is no route, as a scenario's load refuses it. */
  basePath?: string
}

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
function recordableHeaders(pairs: Iterable<readonly [string, string]>, key?: string): Record<string, string> | undefined {
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

type Skip = { skipped: string; category: SkipCategory }
type BodyCheck = { raw?: RawBody; value?: JsonValue; text?: string } | Skip

/**
 * The body as a route holds it, its bytes copied (they are no longer the answer's), with its value and
 * text for the checks that follow, or why it is not recorded. The value is read once here (which
 * refuses text that is not JSON exactly as a load of the saved file would) and then dropped.
 */
function recordableBody(body: Uint8Array, contentType: string | undefined): BodyCheck {
  if (body.length === 0) return {}
  if (body.length > MAX_ROUTE_BODY_BYTES)
    return { skipped: `the body is ${body.length} bytes, over ${MAX_ROUTE_BODY_BYTES} (1 MiB)`, category: 'too large' }
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  const json = isJsonMediaType(type)
  if (!json && !type.startsWith('text/'))
    return {
      skipped: `the body is neither JSON nor text (Content-Type: ${type || 'none'})`,
      category: type.startsWith('image/') ? 'image' : 'binary',
    }
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    return { skipped: 'the body is not UTF-8 text', category: 'binary' }
  }
  const raw = rawBody(new Uint8Array(body), json)
  if (!json) return { raw, value: text, text }
  let value: JsonValue
  try {
    value = parseExactJsonFile(text) as JsonValue
  } catch {
    return { skipped: 'the body is labelled JSON but is not valid JSON (or a key twice, or nested too deep to read)', category: 'not JSON' }
  }
  if (holdsUnwritableNumber(value))
    return { skipped: 'the body holds a number no JSON value keeps (such as 1e400): saved, it would read null', category: 'not JSON' }
  return { raw, value, text }
}

/** Whether a value holds a number past a double's range (1e400 reads as Infinity, which JSON writes as null). */
function holdsUnwritableNumber(value: JsonValue): boolean {
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const item = pending.pop()
    if (typeof item === 'number' && !Number.isFinite(item)) return true
    if (item !== null && typeof item === 'object') for (const inner of Object.values(item)) pending.push(inner)
  }
  return false
}

/** Whether a body carries the key, as it came or as it would be saved (escapes read): such an answer is not recorded at all. */
function carriesKey(text: string | undefined, value: JsonValue | undefined, key: string | undefined): boolean {
  if (text === undefined || key === undefined || key.length < MIN_SEARCHED_KEY) return false
  const has = (written: string) => secretsOf(key).some((secret) => written.includes(secret))
  return has(text) || (text.includes('\\') && has(jsonText(value)))
}

/** A query longer than all of those together is refused before it is parsed. */
const MAX_QUERY_TEXT = MAX_QUERY_NAMES * (MAX_QUERY_NAME + MAX_QUERY_VALUE + 2)

/** JSON fields, form fields and query parameters that hold a credential: access_token, id_token, api_key, password... */
export const CREDENTIAL_FIELD = /(?:token|secret|password|passwd|api[-_]?key|access[-_]?key|private[-_]?key|session[-_]?id)$/i
/** Header names that carry a credential: Authorization, Cookie, X-Api-Key, X-Auth-Token, X-Session-Id, X-Client-Secret... */
export const CREDENTIAL_HEADER = /token|key|secret|auth|session|cookie/i
/** Query parameters besides those: signed URLs' (X-Amz-Signature, X-Amz-Credential, sig) and other spellings of a password. */
const CREDENTIAL_PARAM = /signature|credential|^sig$|passw|pwd|jwt/i

/**
 * The query a route keeps: each parameter as `name: value`, decoded as URLSearchParams reads it.
 * Left out, so that the route matches any value of it: a credential's name (any rule above: a name
 * that only looks like one costs nothing but a broader match), a value or name holding a secret, an
 * empty name and `__proto__`. A name given twice or a control character skips the exchange.
 */
function recordedQuery(target: string, secrets: RecordSecrets): { query?: Record<string, string> } | Skip {
  const start = target.indexOf('?')
  if (start === -1) return {}
  const end = target.indexOf('#', start)
  const text = target.slice(start + 1, end === -1 ? undefined : end)
  const tooLarge = (why: string): Skip => ({ skipped: `the query ${why}`, category: 'query too large' })
  const notHeld = (why: string): Skip => ({ skipped: `the query ${why}`, category: 'query not held' })
  if (text.length > MAX_QUERY_TEXT) return tooLarge(`is ${text.length} characters long, over ${MAX_QUERY_TEXT}`)
  const keys = secretsOf(secrets.key)
  const secret = (part: string) => keys.some((key) => part.includes(key)) || (secrets.holdsSecret?.(part) ?? false)
  const seen = new Set<string>()
  const pairs = [...new URLSearchParams(text)]
  // Left out, a repeated name or a control character would leave a route that answers every other
  // value of it with this one answer: such an exchange is not recorded at all.
  for (const [name, value] of pairs) {
    const credential = CREDENTIAL_FIELD.test(name) || CREDENTIAL_HEADER.test(name) || CREDENTIAL_PARAM.test(name)
    if (credential || secret(name)) continue
    if (seen.has(name)) return notHeld(`names ${quoted(name)} twice, and a route holds one value a name`)
    if (/\p{Cc}/u.test(name + value)) return notHeld(`holds a control character in ${quoted(name)}, which a route cannot`)
    seen.add(name)
  }
  const query: Record<string, string> = {}
  let names = 0
  for (const [name, value] of pairs) {
    const unheld = name === '' || name === '__proto__'
    const credential = CREDENTIAL_FIELD.test(name) || CREDENTIAL_HEADER.test(name) || CREDENTIAL_PARAM.test(name)
    if (unheld || credential || secret(name) || secret(value)) continue
    if (++names > MAX_QUERY_NAMES) return tooLarge(`names over ${MAX_QUERY_NAMES} parameters`)
    if (longer(name, MAX_QUERY_NAME)) return tooLarge(`names a parameter of ${[...name].length} characters, over ${MAX_QUERY_NAME}`)
    if (longer(value, MAX_QUERY_VALUE)) return tooLarge(`gives a value of ${[...value].length} characters, over ${MAX_QUERY_VALUE}`)
    // defineProperty, not assignment: a "__proto__" parameter stays a plain own property.
    Object.defineProperty(query, name, { value, enumerable: true, writable: true, configurable: true })
  }
  return names === 0 ? {} : { query }
}

/** A parameter's name for a message: at most 40 characters, control characters escaped. */
const quoted = (name: string) =>
  JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name).replace(
    /\p{Cc}/gu,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )

/** Whether the headers kept name a Content-Type. */
const typed = (headers: Record<string, string> | undefined) => headers !== undefined && Object.hasOwn(headers, 'content-type')

/**
 * The one rule by which an answer becomes a route, for `--record` and import-har alike: a status
 * below 500, not a spec operation (the simulator answers those), a body of at most 1 MiB that is JSON
 * or text (or none), a path a route can hold. The route has the answer's status, its recordable
 * headers, the query's parameters (recordedQuery) and its body as the bytes that came (`raw`, never
 * parsed to keep); it requires a key, as the service's operations do.
 */
export function routeOfAnswer(answer: AnswerToRecord, secrets: RecordSecrets = {}): RecordDecision {
  if (answer.status >= 500) return { skipped: `status ${answer.status} is not recorded (500 and above)`, category: 'server error' }
  const segments = pathSegments(answer.target)
  if (segments.some((segment) => /[{}]/.test(segment)))
    return { skipped: 'the path holds "{" or "}", which a route reads as a parameter', category: 'not a route' }
  const path = `/${segments.join('/')}`
  const problem = readApiPath(path, '')?.problem
  if (problem !== undefined)
    return { skipped: `the path ${path} is refused: ${problem}, which a server could read as another path`, category: 'not a route' }
  const repeated = baseRepeated([{ path }], secrets.basePath ?? '')
  if (repeated !== undefined) return { skipped: repeated.problem.replace(/^routes\[0\]\.path /, 'the path '), category: 'not a route' }
  const call = OPERATION_TABLE.match(answer.method, path)
  if ('operation' in call)
    return {
      skipped: `${answer.method} ${path} is the spec's operation ${call.operation.id}, which the simulator answers itself`,
      category: 'spec operation',
    }
  const query = recordedQuery(answer.target, secrets)
  if ('skipped' in query) return query
  let headers = recordableHeaders(answer.headers, secrets.key)
  // A HEAD, 204 or 205 answer carries no body, whatever was held for it.
  const bodyless = answer.method === 'HEAD' || answer.status === 204 || answer.status === 205
  const body = recordableBody(bodyless ? new Uint8Array() : answer.body, answer.contentType)
  if ('skipped' in body) return body
  if (carriesKey(body.text, body.value, secrets.key)) return { skipped: 'the body carries the proxy key', category: 'carries the key' }
  // A body is answered under the type it came with, though only a HAR's mimeType said it.
  if (body.raw !== undefined && !typed(headers) && answer.contentType !== undefined) {
    if (!HEADER_VALUE.test(answer.contentType)) return { skipped: 'the Content-Type cannot be sent as a header', category: 'not a route' }
    headers = { ...headers, 'content-type': answer.contentType }
  }
  const candidate = { method: answer.method, path, status: answer.status, ...(headers === undefined ? {} : { headers }), ...query }
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
    return { skipped: error instanceof Error ? error.message : String(error), category: 'not a route' }
  }
}

/** Whether a forwarded answer becomes a route: `routeOfAnswer`'s rule, and an answer the target gave. */
export function recordedRoute(exchange: RecordedExchange, key?: string, basePath = ''): RecordDecision {
  const { answer } = exchange
  if (answer.failure !== undefined) return { skipped: `the target gave no answer (${answer.failure})`, category: 'no answer' }
  const { method, target } = exchange
  const { status, headers, body } = answer
  return routeOfAnswer(
    { method, target, status, headers: Object.entries(headers), contentType: headers['content-type'], body },
    { key, basePath },
  )
}

/**
 * Records this exchange's route in `book` when it is recordable; the book
 * keeps the first per method, path and query, within its bounds. Returns whether it was added.
 */
export function recordInto(book: RouteBook, exchange: RecordedExchange, key?: string, basePath = ''): boolean {
  // A full book takes no more: the body is not even read. One that holds this query already is the book's to say.
  if (book.list().length >= MAX_ROUTES) return false
  const decision = recordedRoute(exchange, key, basePath)
  return 'route' in decision && book.add(decision.route)
}

/**
 * While recording, whether a recorded route answers a request sent to `target` as it was recorded: its
 * query exactly the request's as a route keeps it. Another query is forwarded and recorded in its turn,
 * so a first `/search` never stands for `/search?q=cat`.
 */
export function replaysAsRecorded(route: Pick<Route, 'query'>, target: string, key?: string): boolean {
  const query = recordedQuery(target, { key })
  return !('skipped' in query) && sameQuery(route.query, query.query)
}
