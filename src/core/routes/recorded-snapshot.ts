import * as v from 'valibot'
import { routeOfAnswer } from '../proxy/record.js'
import { isPlainObject } from '../scenario/plain-object.js'
import { MAX_ROUTE_BODY_BYTES } from './parse-routes.js'
import { ROUTE_METHODS } from './route-path.js'
import { longer, MAX_QUERY_NAME, MAX_QUERY_NAMES, MAX_QUERY_VALUE } from './route-schema.js'
import type { HeldRoute } from './route-table.js'

/**
 * A recorded route as a snapshot holds it: what recording kept, its body as the bytes that came (base64).
 * Whether the body is JSON follows its Content-Type, as recording decides it.
 */
export interface RecordedRouteSnapshot {
  method: (typeof ROUTE_METHODS)[number]
  path: string
  query?: Record<string, string>
  status: number
  headers?: Record<string, string>
  bodyBase64?: string
}

/** Bytes as base64, in slices so that a 1 MiB body never spreads into one call's arguments. */
function base64Of(bytes: Uint8Array): string {
  let binary = ''
  for (let start = 0; start < bytes.length; start += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(start, Math.min(start + 0x8000, bytes.length)))
  return btoa(binary)
}

function bytesOf(base64: string): Uint8Array {
  const binary = atob(base64)
  const bytes = new Uint8Array(binary.length)
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index)
  return bytes
}

/** A recorded route as a snapshot writes it: plain JSON, its body's bytes in base64. */
export function recordedRouteSnapshot(route: HeldRoute): RecordedRouteSnapshot {
  const { method, path, query, status, headers, raw } = route
  return {
    method,
    path,
    ...(query === undefined ? {} : { query: { ...query } }),
    status,
    ...(headers === undefined ? {} : { headers: { ...headers } }),
    ...(raw === undefined || raw.bytes.length === 0 ? {} : { bodyBase64: base64Of(raw.bytes) }),
  }
}

/** The same route, field by field: what recording would make of it is what the snapshot says. */
function same(a: RecordedRouteSnapshot, b: RecordedRouteSnapshot): boolean {
  const pairs = (record: Record<string, string> | undefined) => JSON.stringify(Object.entries(record ?? {}))
  return (
    a.method === b.method &&
    a.path === b.path &&
    a.status === b.status &&
    a.bodyBase64 === b.bodyBase64 &&
    pairs(a.query) === pairs(b.query) &&
    pairs(a.headers) === pairs(b.headers)
  )
}

/**
 * A query as a target carries it, escaped only where a query must be (`%`, `&`, `+`, `#`, and `=` in a
 * name): never longer than the target it was recorded from, so that recording's bound on a query's text
 * takes it again (URLSearchParams would write each byte past ASCII as three characters).
 */
function queryText(query: Record<string, string>): string {
  const escaped = (text: string, pattern: RegExp) =>
    text.replace(pattern, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
  return Object.entries(query)
    .map(([name, value]) => `${escaped(name, /[%&+#=]/g)}=${escaped(value, /[%&+#]/g)}`)
    .join('&')
}

/**
 * The route a snapshot's recording stands for, made again by recording's one rule (`routeOfAnswer`), so
 * that a snapshot holds nothing a recording could not: throws an Error saying why when it is not
 * exactly such a route. `routes.add` then bounds and charges it as a live recording.
 */
export function recordedRouteOf(snapshot: RecordedRouteSnapshot): HeldRoute {
  const { method, path, query, status, headers, bodyBase64 } = snapshot
  const search = query === undefined ? '' : `?${queryText(query)}`
  const decision = routeOfAnswer({
    method,
    target: `${path}${search}`,
    status,
    headers: Object.entries(headers ?? {}),
    contentType: headers?.['content-type'],
    body: bodyBase64 === undefined ? new Uint8Array() : bytesOf(bodyBase64),
  })
  const where = `the recorded route ${method} ${path}`
  if ('skipped' in decision) throw new Error(`${where} is not one recording keeps: ${decision.skipped}`)
  if (!same(recordedRouteSnapshot(decision.route), snapshot)) throw new Error(`${where} is not as recording would keep it`)
  return decision.route
}

/** Whether `text` is longer than `most` code points (as recording counts them), a huge one refused by its length alone. */
const past = (text: string, most: number) => text.length > 2 * most || longer(text, most)

/** Names to strings: a plain object, never `__proto__`, whose entries `fits` takes; no other bound (a document's size bounds it). */
const stringMap = (fits: (entries: [string, unknown][]) => boolean, expected: string) =>
  v.custom<Record<string, string>>((value) => {
    if (!isPlainObject(value)) return false
    const entries = Object.entries(value)
    return entries.every(([name, text]) => name !== '__proto__' && typeof text === 'string') && fits(entries)
  }, expected)

/** A query as recording keeps it: at most MAX_QUERY_NAMES names, each name and value within the route schema's bounds in code points. */
const queryMap = stringMap(
  (entries) =>
    entries.length <= MAX_QUERY_NAMES &&
    entries.every(([name, value]) => !past(name, MAX_QUERY_NAME) && !past(value as string, MAX_QUERY_VALUE)),
  `an object of at most ${MAX_QUERY_NAMES} query names to values`,
)
/** Headers as recording keeps them: any number, of any length (recordedRouteOf checks each as recording would). */
const headerMap = stringMap(() => true, 'an object of header names to strings')

/** A recorded route from outside (a state file): bounded fields, then rebuilt by `recordedRouteOf`, which must take it. */
export const recordedRouteSnapshotSchema = v.pipe(
  v.strictObject({
    method: v.picklist(ROUTE_METHODS),
    // As long as recording took it (a request's target, a HAR's URL): recordedRouteOf checks it is a route's path.
    path: v.string(),
    query: v.optional(queryMap),
    status: v.pipe(v.number(), v.safeInteger(), v.minValue(200), v.maxValue(599)),
    headers: v.optional(headerMap),
    bodyBase64: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(4 * Math.ceil(MAX_ROUTE_BODY_BYTES / 3)),
        v.regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/),
      ),
    ),
  }),
  v.check((snapshot) => {
    try {
      recordedRouteOf(snapshot)
      return true
    } catch {
      return false
    }
  }, 'a route recording would keep, as it would keep it'),
) satisfies v.GenericSchema<unknown, RecordedRouteSnapshot>
