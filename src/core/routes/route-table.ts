import { jsonText } from '../json-text.js'
import { type Route, templateSegments } from './route-schema.js'

export type { Route } from './route-schema.js'

/** The route that answers a request, and its place in the scenario's list (for the journal and the panel). */
interface RouteMatch {
  route: Route
  index: number
}

export interface RouteTable {
  /** The route for a method and a path relative to the base (a query is ignored), or null. */
  match(method: string, path: string): RouteMatch | null
  /** The methods some route answers at this path, for a 405's `Allow`; empty when none. */
  methodsAt(path: string): string[]
}

interface CompiledRoute {
  route: Route
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
  if (template.length !== segments.length) return false
  return template.every((literal, index) => (literal === null ? segments[index] !== '' : literal === segments[index]))
}

/**
 * Indexes checked routes (see `parseRoutes`) by method. Among the routes
 * that match a request, a literal segment beats a `{name}` at the first
 * place they differ; the first declared wins between routes of one shape.
 */
export function createRouteTable(routes: readonly Route[]): RouteTable {
  const byMethod = new Map<string, CompiledRoute[]>()
  routes.forEach((route, index) => {
    const segments = templateSegments(route.path)
    const compiled = { route, index, segments, rank: segments.map((segment) => (segment === null ? '0' : '1')).join('') }
    byMethod.set(route.method, [...(byMethod.get(route.method) ?? []), compiled])
  })
  return {
    match(method, path) {
      const segments = pathSegments(path)
      let best: CompiledRoute | undefined
      for (const candidate of byMethod.get(method) ?? []) {
        if (!matches(candidate.segments, segments)) continue
        if (best === undefined || candidate.rank > best.rank) best = candidate
      }
      return best === undefined ? null : { route: best.route, index: best.index }
    },
    methodsAt(path) {
      const segments = pathSegments(path)
      return [...byMethod].filter(([, compiled]) => compiled.some((each) => matches(each.segments, segments))).map(([method]) => method)
    },
  }
}

/** Whether a media type is JSON: `application/json` or any `+json` type. */
export function isJsonMediaType(contentType: string | undefined | null): boolean {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  return type === 'application/json' || type.endsWith('+json')
}

/** A route's Content-Type, whatever the case of its name. */
function contentTypeOf(headers: Readonly<Record<string, string>>): string | undefined {
  return Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1]
}

/**
 * A route's answer, ready for a transport. A body is sent as JSON, with
 * `Content-Type: application/json` unless the route names one; a string body
 * under a Content-Type that is not JSON (`text/plain`, as recording keeps
 * text) is sent as it is.
 */
export function routeReply(route: Route): { status: number; headers: Record<string, string>; body: string | null } {
  const headers = { ...route.headers }
  if (route.body === undefined) return { status: route.status, headers, body: null }
  const contentType = contentTypeOf(headers)
  if (contentType === undefined) headers['Content-Type'] = 'application/json'
  if (typeof route.body === 'string' && contentType !== undefined && !isJsonMediaType(contentType))
    return { status: route.status, headers, body: route.body }
  return { status: route.status, headers, body: jsonText(route.body) }
}
