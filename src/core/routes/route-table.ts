import type { JsonValue } from '../glossary.js'
import { jsonText } from '../json-text.js'
import { canonicalSegment } from '../operations/api-path.js'
import { type Route, templateSegments } from './route-schema.js'

export type { Route } from './route-schema.js'

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

/** The route that answers a request, and its place in the scenario's list (for the journal and the panel). */
interface RouteMatch {
  route: HeldRoute
  index: number
}

export interface RouteTable {
  /** The route for a method and a path relative to the base (a query is ignored), or null. */
  match(method: string, path: string): RouteMatch | null
  /** The methods some route answers at this path, for a 405's `Allow`; empty when none. */
  methodsAt(path: string): string[]
  /** Adds the route at `index` (the end of the list): it compiles that route alone. */
  add(route: HeldRoute, index: number): void
}

interface CompiledRoute {
  route: HeldRoute
  index: number
  /** Each segment's literal text, or null for `{name}`. */
  segments: (string | null)[]
  /** One character per segment, "1" literal, "0" `{name}`: a greater string is the more specific route. */
  rank: string
}

/** The segments of a path: "/" is none; one trailing slash is tolerated, as the service's operations tolerate it. */
export function pathSegments(path: string): string[] {
  const end = path.search(/[?#]/)
  let bare = end === -1 ? path : path.slice(0, end)
  if (bare.length > 1 && bare.endsWith('/')) bare = bare.slice(0, -1)
  if (bare === '' || bare === '/') return []
  return (bare.startsWith('/') ? bare.slice(1) : bare).split('/')
}

function matches(template: readonly (string | null)[], segments: readonly string[]): boolean {
  for (let index = 0; index < template.length; index++) {
    const literal = template[index]
    if (literal === null ? segments[index] === '' : literal !== segments[index]) return false
  }
  return true
}

/** Whether `a` answers before `b`: the more specific first, then the first declared. */
const before = (a: CompiledRoute, b: CompiledRoute) => a.rank > b.rank || (a.rank === b.rank && a.index < b.index)

/**
 * Indexes checked routes (see `parseRoutes`) by method and number of
 * segments, each list in the order routes win: among the routes that match a
 * request, a literal segment beats a `{name}` at the first place they differ;
 * the first declared wins between routes of one shape. Built once per list (a
 * state's load or reset), grown by `add`: a request only reads it, and one
 * whose method and segment count no route has costs a lookup or two.
 */
export function createRouteTable(routes: readonly HeldRoute[]): RouteTable {
  const byMethod = new Map<string, Map<number, CompiledRoute[]>>()
  /** The list a route goes in, and its compiled form. */
  function place(route: HeldRoute, index: number): [CompiledRoute[], CompiledRoute] {
    // Literals as a request's path text spells them (api-path.ts): `/a|b` and `/a%7Cb` are one path.
    const segments = templateSegments(route.path).map((segment) => (segment === null ? null : canonicalSegment(segment)))
    const compiled = { route, index, segments, rank: segments.map((segment) => (segment === null ? '0' : '1')).join('') }
    const byLength = byMethod.get(route.method) ?? new Map<number, CompiledRoute[]>()
    byMethod.set(route.method, byLength)
    const list = byLength.get(segments.length) ?? []
    byLength.set(segments.length, list)
    return [list, compiled]
  }
  const lists = new Set<CompiledRoute[]>()
  routes.forEach((route, index) => {
    const [list, compiled] = place(route, index)
    list.push(compiled)
    lists.add(list)
  })
  for (const list of lists) list.sort((a, b) => (before(a, b) ? -1 : 1))
  function add(route: HeldRoute, index: number): void {
    const [list, compiled] = place(route, index)
    // The last in list order goes after every route of its rank: one walk back from the end.
    let at = list.length
    while (at > 0 && before(compiled, list[at - 1] as CompiledRoute)) at--
    list.splice(at, 0, compiled)
  }
  const candidates = (method: string, segments: readonly string[]) => byMethod.get(method)?.get(segments.length) ?? []
  return {
    match(method, path) {
      const segments = pathSegments(path)
      const best = candidates(method, segments).find((candidate) => matches(candidate.segments, segments))
      return best === undefined ? null : { route: best.route, index: best.index }
    },
    methodsAt(path) {
      const segments = pathSegments(path)
      return [...byMethod.keys()].filter((method) => candidates(method, segments).some((each) => matches(each.segments, segments)))
    },
    add,
  }
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
