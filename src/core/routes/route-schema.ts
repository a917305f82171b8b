// A scenario's `routes`, said once: the loader checks them with this schema (scenario-schema.ts), and
// recording and import-har check the routes they make with it (parse-routes.ts). Kept small: every page
// that loads the simulator carries it; matching and answering load only when a route is asked for.
import * as v from 'valibot'
import { OPERATIONS } from '../operations/registry.js'
import { jsonText } from '../json-text.js'
import type { JsonValue } from '../glossary.js'
import { flag, integer, mustBe, oneOf, record } from '../scenario/field-schemas.js'
import { isPlainObject } from '../scenario/plain-object.js'

/** The methods a route may answer: those every runtime's fetch can send (not TRACE or CONNECT). */
export const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const
/** The most routes one scenario (or state) may hold. */
export const MAX_ROUTES = 1000
/** The largest body of one route, as JSON text. */
export const MAX_ROUTE_BODY_BYTES = 1024 * 1024

/**
 * An answer for an operation the spec does not show, as a scenario writes it. Said as an interface, and
 * the schemas below typed with it: inferred, the scenario schema's declaration nests too deep for
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

/** A path under the base: printable ASCII segments, none empty, "." or ".."; a `{name}` is a whole segment. */
const PATH = /^(\/(?!\.\.?(\/|$))(\{[a-z_][\w-]*\}|[!"$-.0->@-z|~]+))+$|^\/$/i
/** A header a route may set (not Content-Length or a connection header), with its value. */
const HEADER = /^(?!content-length$|connection$|keep-alive$|te$|trailer$|transfer-encoding$|upgrade$|proxy-)[\w!#$%&'*+.^`|~-]+$/i

/** The spec operation a route would answer instead of the simulator, if any. */
const taken = ({ method, path }: { method: string; path: string }) =>
  OPERATIONS.find(
    (operation) =>
      operation.method === method &&
      templateSegments(operation.path).every(
        (literal, at, all) => all.length === templateSegments(path).length && (literal === null || literal === templateSegments(path)[at]),
      ),
  )

/** One route: `{ method, path, status, headers?, body?, auth? }`. */
export const RouteSchema: v.GenericSchema<Route> = v.pipe(
  record({
    method: oneOf(ROUTE_METHODS),
    path: v.custom<string>((path) => typeof path === 'string' && PATH.test(path), mustBe('a path under the base such as "/store/{id}"')),
    status: integer(200, 599),
    headers: v.optional(
      v.custom<Record<string, string>>(
        (headers) =>
          isPlainObject(headers) &&
          Object.entries(headers).every(([name, value]) => HEADER.test(name) && typeof value === 'string' && /^[^\r\n\0]*$/.test(value)),
        mustBe('header names to strings (no Content-Length or connection header)'),
      ),
    ),
    // Any JSON value, sent as JSON text (a string under a Content-Type that is not JSON is sent as it is).
    body: v.optional(v.custom<JsonValue>(() => true)),
    auth: v.optional(flag),
  }),
  v.check(
    (route) => !taken(route),
    ({ input }) => ` would replace the spec's operation ${taken(input)?.id}`,
  ),
  v.check(
    (route) =>
      route.body === undefined ||
      (route.method !== 'HEAD' && ![204, 205, 304].includes(route.status) && jsonText(route.body).length <= MAX_ROUTE_BODY_BYTES),
    ' must have no body with HEAD, 204, 205 or 304, nor one over 1 MiB',
  ),
)

/** A scenario's routes: at most MAX_ROUTES. */
export const RoutesSchema: v.GenericSchema<Route[]> = v.pipe(
  v.array(RouteSchema, mustBe('an array')),
  v.check((routes) => routes.length <= MAX_ROUTES, ` holds over ${MAX_ROUTES} routes`),
)
