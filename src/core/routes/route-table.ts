import type { JsonValue } from '../glossary.js'
import { jsonText } from '../json-text.js'
import { decodedSegment } from '../operations/api-path.js'
import { OPERATIONS } from '../operations/registry.js'
import type { Operation } from '../operations/routing.js'
import { pathSegments, queryOf, type Route, templateSegments } from './route-path.js'

export type { Route } from './route-path.js'

/**
 * A recorded body, held as the bytes that came: answered as they are, and read as a value only when
 * shown (a state view, an export, a save), so that what a state holds is what its bound counts.
 */
export interface RawBody {
  readonly bytes: Uint8Array
  /** The body as a scenario writes it: JSON as its value (every digit kept), text as a string. Reads it anew each time. */
  value(): JsonValue
}

/** A route as a state holds it: a recorded one has `raw` in place of `body`. */
export interface HeldRoute extends Route {
  readonly raw?: RawBody
}

/** A spec operation that answers a request, with its decoded path parameter ("" when its path has none). */
export interface OperationEntry {
  operation: Operation
  param: string
}

/** A scenario's route that answers a request, and its place in the state's list (for the journal and the panel). */
interface RouteEntry {
  route: HeldRoute
  index: number
}

/** What a table says of a method and a path: what answers it, else the methods the path answers (none: `[]`). */
export type Lookup = OperationEntry | RouteEntry | { allow: string[] }

export type RouteTable = ReturnType<typeof createRouteTable>

interface Compiled {
  operation?: Operation
  route?: HeldRoute
  /** Its place in the scenario's list; -1 for an operation, which no route may replace (route-schema.ts). */
  index: number
  /** Each segment's decoded literal, or null for `{name}`. */
  segments: (string | null)[]
  /** One character per segment, "1" literal, "0" `{name}`: a greater string is the more specific entry. */
  rank: string
  /** The query parameters a request must carry, each with its value; undefined for any query (none, or `{}`). */
  query: readonly (readonly [name: string, value: string])[] | undefined
}

function compile(path: string, entry: Pick<Compiled, 'operation' | 'route' | 'index'>): Compiled {
  const segments = templateSegments(path).map((segment) => (segment === null ? null : decodedSegment(segment)))
  const pairs = entry.route?.query === undefined ? [] : Object.entries(entry.route.query)
  const query = pairs.length === 0 ? undefined : pairs
  return { ...entry, segments, rank: segments.map((segment) => (segment === null ? '0' : '1')).join(''), query }
}

/** The spec's operations as entries: in every state's table, and alone in the table of a request that reaches no state. */
const OPERATION_ENTRIES: readonly Compiled[] = OPERATIONS.map((operation) => compile(operation.path, { operation, index: -1 }))

function matches(template: readonly (string | null)[], segments: readonly string[]): boolean {
  for (let index = 0; index < template.length; index++) {
    const literal = template[index]
    if (literal === null ? segments[index] === '' : literal !== segments[index]) return false
  }
  return true
}

/** How many query parameters an entry names. */
const named = (entry: Compiled) => entry.query?.length ?? 0

/**
 * Whether `a` answers before `b`: the more specific path first, then the route naming more query
 * parameters, then the first declared (an operation before any route).
 */
const before = (a: Compiled, b: Compiled) =>
  a.rank > b.rank || (a.rank === b.rank && (named(a) > named(b) || (named(a) === named(b) && a.index < b.index)))

/** Whether a request's parameters hold each of the entry's: a name sent twice matches either value. */
function queryMatches(query: NonNullable<Compiled['query']>, params: URLSearchParams): boolean {
  for (const [name, value] of query) if (!params.getAll(name).includes(value)) return false
  return true
}

/**
 * The first entry of `list` that answers these segments and this raw query (null: any query, for the
 * path's methods). The query is parsed only when an entry that names parameters is tried: a table with
 * no such route, or an operation's request, never parses it.
 */
function firstOf(list: readonly Compiled[] | undefined, segments: readonly string[], query: string | null): Compiled | undefined {
  if (list === undefined) return undefined
  let params: URLSearchParams | undefined
  for (const entry of list) {
    if (!matches(entry.segments, segments)) continue
    if (entry.query === undefined || query === null) return entry
    params ??= new URLSearchParams(query)
    if (queryMatches(entry.query, params)) return entry
  }
  return undefined
}

function found(entry: Compiled, segments: readonly string[]): OperationEntry | RouteEntry {
  if (entry.operation === undefined) return { route: entry.route as HeldRoute, index: entry.index }
  const at = entry.segments.indexOf(null)
  return { operation: entry.operation, param: at === -1 ? '' : (segments[at] as string) }
}

/**
 * The one route table of a state: the spec's operations and the checked routes (see `parseRoutes`),
 * indexed by method and number of segments, each list in the order entries win: a literal segment
 * beats a `{name}` at the first place they differ; then the route naming more query parameters; the
 * first declared wins between routes of one shape. Built once per list (a state's load or reset), grown by `add`: a request only reads it, and
 * one whose method and segment count nothing has costs a lookup or two.
 */
export function createRouteTable(routes: readonly HeldRoute[]) {
  const byMethod = new Map<string, Map<number, Compiled[]>>()
  const listOf = (entry: Compiled) => {
    const method = entry.operation?.method ?? (entry.route as HeldRoute).method
    const byLength = byMethod.get(method) ?? new Map<number, Compiled[]>()
    byMethod.set(method, byLength)
    const list = byLength.get(entry.segments.length) ?? []
    byLength.set(entry.segments.length, list)
    return list
  }
  for (const entry of [...OPERATION_ENTRIES, ...routes.map((route, index) => compile(route.path, { route, index }))])
    listOf(entry).push(entry)
  for (const byLength of byMethod.values()) for (const list of byLength.values()) list.sort((a, b) => (before(a, b) ? -1 : 1))
  const first = (method: string, segments: readonly string[], query: string | null) =>
    firstOf(byMethod.get(method)?.get(segments.length), segments, query)
  return {
    /**
     * What answers `method` at `path` (a path under the base, or its decoded segments) with `query`, the
     * raw query without "?": when not given, a string path's own query, else none. Spec operations and
     * routes without `query` take any query.
     */
    match(method: string, path: string | readonly string[], query?: string): Lookup {
      // Decoded, as the one path rule reads a request's segments (api-path.ts).
      const segments = typeof path === 'string' ? pathSegments(path).map(decodedSegment) : path
      const entry = first(method, segments, query ?? (typeof path === 'string' ? queryOf(path) : ''))
      if (entry !== undefined) return found(entry, segments)
      // The path's methods whatever the query, an operation's first: what a 405's Allow and a preflight name.
      const allow = [...byMethod.keys()].filter((each) => first(each, segments, null) !== undefined)
      const ownMethod = operationAt(segments)?.method
      return { allow: ownMethod === undefined ? allow : [ownMethod, ...allow.filter((each) => each !== ownMethod)] }
    },
    /** Adds the route at `index` (the end of the list): it compiles that route alone. */
    add(route: HeldRoute, index: number): void {
      const compiled = compile(route.path, { route, index })
      const list = listOf(compiled)
      // The last in list order goes after every entry of its rank: one walk back from the end.
      let at = list.length
      while (at > 0 && before(compiled, list[at - 1] as Compiled)) at--
      list.splice(at, 0, compiled)
    },
  }
}

/** The table of the spec's operations alone: what a request that reaches no state is matched by. */
export const OPERATION_TABLE: Pick<RouteTable, 'match'> = createRouteTable([])

/** The operation whose path (any method) these decoded segments fill, if any. */
export function operationAt(segments: readonly string[]): Operation | undefined {
  return OPERATION_ENTRIES.find((entry) => entry.segments.length === segments.length && matches(entry.segments, segments))?.operation
}

/** Whether a media type is JSON: `application/json` or any `+json` type. */
export function isJsonMediaType(contentType: string | undefined | null): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  return type === 'application/json' || type.endsWith('+json')
}

/** A header's name as a route spells it, whatever the case asked for. */
function nameOf(headers: Readonly<Record<string, string>>, lower: string): string | undefined {
  return Object.keys(headers).find((name) => name.toLowerCase() === lower)
}

/** A policy with a bare `sandbox` directive (no allow-* token): the page it covers has an opaque origin. */
const SANDBOXED = /(?:^|[,;])\s*sandbox\s*(?:$|[,;])/i

/**
 * Served on the simulator's own origin, a route's page (text/html) would be same-origin with `/__sim`;
 * sandboxed, its origin is opaque. A route's own policy stays: a second policy only adds limits.
 */
function sandboxed(headers: Record<string, string>): void {
  const name = nameOf(headers, 'content-security-policy')
  const own = name === undefined ? undefined : headers[name]
  if (name === undefined || own === undefined) headers['Content-Security-Policy'] = 'sandbox'
  else if (!SANDBOXED.test(own)) headers[name] = `${own}, sandbox`
}

/**
 * A route's answer, ready for a transport, with `Content-Security-Policy:
 * sandbox`. A recorded body goes as the bytes that came (a copy: in process
 * they reach the caller's hands), under its recorded Content-Type. Another
 * body is sent as JSON, with `Content-Type: application/json` unless the
 * route names one; a string body under a Content-Type that is not JSON
 * (`text/plain`) is sent as it is.
 */
export function routeReply(route: HeldRoute): { status: number; headers: Record<string, string>; body: Uint8Array | string | null } {
  const headers = { ...route.headers }
  sandboxed(headers)
  if (route.raw !== undefined) return { status: route.status, headers, body: route.raw.bytes.slice() }
  if (route.body === undefined) return { status: route.status, headers, body: null }
  const typeName = nameOf(headers, 'content-type')
  const contentType = typeName === undefined ? undefined : headers[typeName]
  if (contentType === undefined) headers['Content-Type'] = 'application/json'
  if (typeof route.body === 'string' && contentType !== undefined && !isJsonMediaType(contentType))
    return { status: route.status, headers, body: route.body }
  return { status: route.status, headers, body: jsonText(route.body) }
}
