// What a route is, and a path as segments: what the table (route-table.ts) and the schema (route-schema.ts) both read.
import type { JsonValue } from '../glossary.js'

/** The methods a route may answer: those every runtime's fetch can send (not TRACE or CONNECT). */
export const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const

/**
 * An answer for an operation the spec does not show, as a scenario writes it. Said as an interface, and
 * route-schema.ts's schemas typed with it: inferred, the scenario schema's declaration nests too deep for
 * TypeScript to check in a consumer's build (TS2589 with skipLibCheck off).
 */
export interface Route {
  method: (typeof ROUTE_METHODS)[number]
  /** Under the API base; a `{name}` segment matches any one segment. */
  path: string
  /** 200 to 599. */
  status: number
  headers?: Record<string, string>
  /** Any JSON value, sent as JSON text (a string under a Content-Type that is not JSON as it is). */
  body?: JsonValue
  /** False: answered without a key. Default true. */
  auth?: boolean
  /** Query parameters the request must carry, each with this value; none (or `{}`): any query. */
  query?: Record<string, string>
}

/** Whether two routes name the same query parameters with the same values, in any order (none is `{}`). */
export function sameQuery(a: Route['query'], b: Route['query']): boolean {
  const names = Object.keys(a ?? {})
  if (names.length !== Object.keys(b ?? {}).length) return false
  return names.every((name) => b !== undefined && Object.hasOwn(b, name) && b[name] === a?.[name])
}

/** A route's identity, one per method, path and query: its query's names in order, so that `?a=1&b=2` and `?b=2&a=1` are one. */
export function routeIdentity(route: { method: string; path: string; query?: Route['query'] }): string {
  const query = Object.entries(route.query ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return JSON.stringify([route.method, route.path, query])
}

/** A route's path, segment by segment: "/" is none; a `{name}` is null (it matches any one segment). */
export function templateSegments(path: string): (string | null)[] {
  return path === '/'
    ? []
    : path
        .slice(1)
        .split('/')
        .map((segment) => (/^\{.*\}$/.test(segment) ? null : segment))
}

/** The segments of a path as sent (not decoded): "/" is none; one trailing slash is tolerated, as the service's operations tolerate it; a query is no part of it. */
export function pathSegments(path: string): string[] {
  const end = path.search(/[?#]/)
  let bare = end === -1 ? path : path.slice(0, end)
  if (bare.length > 1 && bare.endsWith('/')) bare = bare.slice(0, -1)
  if (bare === '' || bare === '/') return []
  return (bare.startsWith('/') ? bare.slice(1) : bare).split('/')
}

/** A target's query as sent, without "?" (and without a fragment): "" when it has none. Sliced only, never parsed. */
export function queryOf(target: string): string {
  const start = target.indexOf('?')
  const hash = target.indexOf('#')
  if (start === -1 || (hash !== -1 && hash < start)) return ''
  return target.slice(start + 1, hash === -1 ? undefined : hash)
}
