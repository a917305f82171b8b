/** The response headers a frontend on another origin may read: without this list it sees `null` for them. */
export const EXPOSED_HEADERS =
  'Deprecation, Sunset, Link, WWW-Authenticate, Allow, Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Preference-Applied'

/**
 * The CORS headers of an API answer: the origin reflected (credentialed
 * requests work too), or `*` when there is none.
 */
export function apiCorsHeaders(origin: string | undefined): Record<string, string> {
  return origin === undefined
    ? { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED_HEADERS }
    : {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Expose-Headers': EXPOSED_HEADERS,
        Vary: 'Origin',
      }
}
