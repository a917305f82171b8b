/** The response headers a frontend on another origin may read: without this list it sees `null` for them. */
const EXPOSED_HEADERS =
  'Deprecation, Sunset, Link, WWW-Authenticate, Allow, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Preference-Applied'

/** What a preflight allows on a path that is no operation's: any method a client may try. */
export const ANY_METHOD = 'GET, POST, PUT, PATCH, DELETE'

/** What a preflight allows under the admin API. */
export const ADMIN_METHODS = 'GET, POST, PUT, DELETE'

const ANY_ORIGIN: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS,
})

/**
 * The CORS headers of an API answer, so that a frontend served from another
 * origin can read it: the origin reflected (credentialed requests work too),
 * or `*` when there is none.
 */
export function apiCorsHeaders(origin: string | undefined): Readonly<Record<string, string>> {
  if (origin === undefined) return ANY_ORIGIN
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    Vary: 'Origin',
    'Access-Control-Expose-Headers': EXPOSED_HEADERS,
  }
}

/**
 * The CORS headers of an admin answer: it names only an origin the admin
 * guard let through, and never allows credentials.
 */
export function adminCorsHeaders(origin: string | undefined): Readonly<Record<string, string>> {
  if (origin === undefined) return { 'Access-Control-Expose-Headers': EXPOSED_HEADERS }
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': EXPOSED_HEADERS }
}

/**
 * Headers every preflight allows besides those asked for: the key and the body's type, and the W3C Trace
 * Context and Baggage headers a traced frontend sends (a `sim-session` baggage member names a session).
 */
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'baggage', 'traceparent', 'tracestate']
const ALWAYS_ALLOWED = /^(authorization|content-type|baggage|traceparent|tracestate)$/i

/**
 * The headers of a preflight's 204 (besides the CORS ones): the methods the
 * path takes, `ALLOWED_HEADERS` and whatever other headers the client asked
 * for (`Access-Control-Request-Headers`).
 */
export function preflightHeaders(methods: string, requestedHeaders: string | undefined): Record<string, string> {
  const requested = (requestedHeaders ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && !ALWAYS_ALLOWED.test(name))
  return {
    'Access-Control-Allow-Methods': methods,
    'Access-Control-Allow-Headers': [...ALLOWED_HEADERS, ...requested].join(', '),
    'Access-Control-Max-Age': '600',
    Allow: `${methods}, OPTIONS`,
  }
}
