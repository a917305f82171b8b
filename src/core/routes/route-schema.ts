// A scenario's `routes`, said once: the loader checks them with this schema (scenario-schema.ts), and
// recording and import-har check the routes they make with it (parse-routes.ts). Kept small: every page
// that loads the simulator carries it; matching and answering load only when a route is asked for.
import * as v from 'valibot'
import { HEADER_TOKEN, HEADER_VALUE, HOP_BY_HOP } from '../http-headers.js'
import { readApiPath } from '../operations/api-path.js'

import { jsonText } from '../json-text.js'
import { describe } from '../quote-value.js'
import type { JsonValue } from '../glossary.js'
import { flag, integer, mustBe, oneOf, record } from '../scenario/field-schemas.js'
import { isPlainObject } from '../scenario/plain-object.js'
import { ROUTE_METHODS, type Route } from './route-path.js'
import { OPERATION_TABLE } from './route-table.js'

export { ROUTE_METHODS, type Route } from './route-path.js'

/** The most routes one scenario (or state) may hold. */
export const MAX_ROUTES = 1000
/** The largest body of one route, as JSON text. */
export const MAX_ROUTE_BODY_BYTES = 1024 * 1024

/** A path a request can have: none that the one path rule refuses (`;`, `\`, `%2f`, `%2e`...; api-path.ts) could ever reach a route. */
const requestable = (path: string) => readApiPath(path, '')?.problem === undefined

/** A path under the base: printable ASCII segments, none empty, "." or ".."; a `{name}` is a whole segment. */
const PATH = /^(\/(?!\.\.?(\/|$))(\{[A-Za-z_][\w-]*\}|[!"$-.0->@-z|~]+))+$|^\/$/
/** A character HEADER_VALUE refuses (a whole code point, for the message). */
const UNSENDABLE = /[^\t\x20-\x7e\x80-\xff]/u

/** Names a route may not set (lower-case; one ending in "-" is a prefix), each with why. */
const REFUSED_HEADERS: readonly (readonly [names: readonly string[], why: string])[] = [
  [['access-control-'], "the simulator answers CORS itself, and a route's would be sent beside its own"],
  [[...HOP_BY_HOP, 'proxy-'], 'a hop-by-hop header belongs to the connection, not to the answer'],
  [['content-length', 'content-encoding'], 'the simulator sets the length of the body itself and sends it unencoded'],
]
const refusedNames = REFUSED_HEADERS.flatMap(([names]) => names)

/** Why a route may not set this header, if it may not. */
function refusal(name: string): string | undefined {
  const lower = name.toLowerCase()
  const refused = (listed: string) => (listed.endsWith('-') ? lower.startsWith(listed) : lower === listed)
  return REFUSED_HEADERS.find(([names]) => names.some(refused))?.[1]
}

/** The header names a route may set, as one flagless pattern (JSON Schema has no `i`: each letter is written in both cases). */
const HEADER_NAME = (() => {
  const anyCase = (text: string) => text.replace(/[a-z]/g, (letter) => `[${letter}${letter.toUpperCase()}]`)
  const prefixes = refusedNames.filter((name) => name.endsWith('-')).map(anyCase)
  const whole = refusedNames.filter((name) => !name.endsWith('-')).map(anyCase)
  return new RegExp(`^(?!(?:${prefixes.join('|')})|(?:${whole.join('|')})$)${HEADER_TOKEN.source.slice(1)}`)
})()

/** A name as a message shows it: as written, but on one line and at most 80 characters. */
function shown(name: string): string {
  const line = name.slice(0, 80).replace(/[^\x20-\x7e]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return name.length > 80 ? `${line}…` : line
}

/** The first problem of one header, said after its field (`routes[2].headers.x-note`). */
function headerProblem(name: string, value: unknown, same: string | undefined): string | undefined {
  if (!HEADER_TOKEN.test(name)) return " is not a header name: letters, digits and !#$%&'*+-.^_`|~ only (an RFC 9110 token)"
  const why = refusal(name)
  if (why !== undefined) return ` is refused: ${why}`
  if (same !== undefined) return ` repeats the header ${same} (header names ignore case): keep one`
  if (typeof value !== 'string') return ` must be a string, got ${describe(value)}`
  const bad = UNSENDABLE.exec(value)?.[0]
  if (bad === undefined) return undefined
  const code = (bad.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')
  return ` must be a header value Node can send (tab, U+0020 to U+007E, U+0080 to U+00FF), got U+${code}`
}

/** A route's headers: an object of names to values Node sends as written; an issue names the header. */
const HeadersSchema: v.GenericSchema<Record<string, string>> = v.pipe(
  v.custom<Record<string, string>>(isPlainObject, mustBe('an object of header names to strings')),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const input: Record<string, unknown> = dataset.value
    // Each name by its lower case: a second spelling of one header is refused (which would a client see?).
    const seen = new Map<string, string>()
    for (const name of Object.keys(input)) {
      const problem = headerProblem(name, input[name], seen.get(name.toLowerCase()))
      if (problem === undefined) {
        seen.set(name.toLowerCase(), name)
        continue
      }
      addIssue({ message: problem, path: [{ type: 'object', origin: 'value', input, key: shown(name), value: input[name] }] })
      return
    }
  }),
  v.metadata({
    type: 'object',
    propertyNames: { type: 'string', pattern: HEADER_NAME.source },
    additionalProperties: { type: 'string', pattern: HEADER_VALUE.source },
    description:
      'Sent as written. Names are RFC 9110 tokens; values hold tabs and characters U+0020 to U+007E and U+0080 to U+00FF only (what Node sends). Refused: Access-Control-* (the simulator answers CORS itself), hop-by-hop headers (Connection, Keep-Alive, TE, Trailer, Transfer-Encoding, Upgrade, Proxy-*), Content-Length, Content-Encoding, and one name twice in different cases.',
  }),
)

/** The most query parameters one route may name, and the longest name and value (in characters, as JSON Schema counts them). */
export const MAX_QUERY_NAMES = 32
export const MAX_QUERY_NAME = 256
export const MAX_QUERY_VALUE = 2048
/** Text with no control character (C0, DEL, C1): a query name or value a message and a log show on one line. */
const NO_CONTROL = /^\P{Cc}*$/u
const CONTROLS = ' must hold no control characters (U+0000 to U+001F, U+007F to U+009F)'

/** Whether `text` is longer than `most` characters, counted as JSON Schema counts them (code points). */
export const longer = (text: string, most: number) => text.length > most && [...text].length > most

/** The first problem of one query parameter, said after its field (`routes[2].query.q`). */
function queryProblem(name: string, value: unknown): string | undefined {
  // Own data in a parsed file, but Object.assign or a plain copy would set a prototype with it.
  if (name === '__proto__') return ' is refused: "__proto__" is a name a copy of the object would turn into its prototype'
  if (name === '' || longer(name, MAX_QUERY_NAME)) return ` must be a name of 1 to ${MAX_QUERY_NAME} characters`
  if (!NO_CONTROL.test(name)) return CONTROLS
  if (typeof value !== 'string') return ` must be a string, got ${describe(value)}`
  if (longer(value, MAX_QUERY_VALUE)) return ` must be at most ${MAX_QUERY_VALUE} characters, got ${[...value].length}`
  return NO_CONTROL.test(value) ? undefined : CONTROLS
}

/** A route's query: parameter names to the value each must have (as URLSearchParams decodes it); `{}` is any query. */
const QuerySchema: v.GenericSchema<Record<string, string>> = v.pipe(
  v.custom<Record<string, string>>(isPlainObject, mustBe('an object of query parameter names to strings')),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const input: Record<string, unknown> = dataset.value
    const names = Object.keys(input)
    // Counted before any name is read: a huge object is refused whole.
    if (names.length > MAX_QUERY_NAMES) {
      addIssue({ message: ` names ${names.length} parameters; a route may name at most ${MAX_QUERY_NAMES}` })
      return
    }
    for (const name of names) {
      const problem = queryProblem(name, input[name])
      if (problem === undefined) continue
      // An empty name has no field to name: the message says it after `routes[N].query`.
      if (name === '') addIssue({ message: ` has an empty parameter name; a name is 1 to ${MAX_QUERY_NAME} characters` })
      else addIssue({ message: problem, path: [{ type: 'object', origin: 'value', input, key: shown(name), value: input[name] }] })
      return
    }
  }),
  v.metadata({
    type: 'object',
    maxProperties: MAX_QUERY_NAMES,
    propertyNames: { type: 'string', minLength: 1, maxLength: MAX_QUERY_NAME, pattern: NO_CONTROL.source, not: { const: '__proto__' } },
    additionalProperties: { type: 'string', maxLength: MAX_QUERY_VALUE, pattern: NO_CONTROL.source },
    description: `The query parameters a request must carry, each with this value (compared decoded, as URLSearchParams reads them; a parameter sent twice matches either value). A request's other parameters do not matter; none, or {}, matches any query. Where several routes match, the most specific path wins, then the route naming more parameters, then the first. At most ${MAX_QUERY_NAMES} names of 1 to ${MAX_QUERY_NAME} characters, values at most ${MAX_QUERY_VALUE}, no control characters; "__proto__" is refused.`,
  }),
)

/** The spec operation the table answers for a route's method and path, which the route would replace; none, or the path's methods. */
const replacedOperation = ({ method, path }: { method: string; path: string }) => {
  const found = OPERATION_TABLE.match(method, path)
  return 'operation' in found ? found.operation : undefined
}

/** One route: `{ method, path, query?, status, headers?, body?, auth? }`. */
export const RouteSchema: v.GenericSchema<Route> = v.pipe(
  record({
    method: oneOf(ROUTE_METHODS),
    path: v.pipe(
      v.custom<string>(
        (path) => typeof path === 'string' && PATH.test(path) && requestable(path),
        (issue) =>
          typeof issue.input === 'string' && issue.input.includes('?')
            ? ' must hold no query: name its parameters in "query", such as { "q": "cat" }'
            : mustBe('a path under the base such as "/store/{id}"')(issue),
      ),
      v.metadata({ type: 'string', pattern: PATH.source }),
    ),
    query: v.optional(QuerySchema),
    status: integer(200, 599),
    headers: v.optional(HeadersSchema),
    // Any JSON value, sent as JSON text (a string under a Content-Type that is not JSON is sent as it is).
    body: v.optional(v.custom<JsonValue>(() => true)),
    auth: v.optional(flag),
  }),
  v.check(
    (route) => replacedOperation(route) === undefined,
    ({ input }) => ` would replace the spec's operation ${replacedOperation(input)?.id}`,
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
  v.metadata({ maxItems: MAX_ROUTES }),
)
