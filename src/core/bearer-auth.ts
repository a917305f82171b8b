import { ApiError } from './api-error.js'
import { ErrorCode } from './error-codes.js'

/** RFC 6750 section 2.1: `b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`. */
export const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/
/** RFC 9110 section 11.6.2: the scheme, then one or more spaces, then the credentials. The scheme is case-insensitive. */
const BEARER_CREDENTIALS = /^Bearer +(\S.*)$/i

/** True when `key` could ever be sent as a bearer token. */
export function isBearerToken(key: string): boolean {
  return B64TOKEN.test(key)
}

/** The 401 the simulator sends: an Error body and `WWW-Authenticate: Bearer`. */
export function unauthorized(message: string): ApiError {
  // No `error=` parameter: the Error body's message says what was wrong.
  return new ApiError(401, ErrorCode.Unauthorized, message, { 'WWW-Authenticate': 'Bearer' })
}

/**
 * Checks the bearer key of a request (its `Authorization` header, null when
 * absent) against the keys a scenario accepts (specification section 5).
 * Throws a 401 `ApiError` when the header is missing, uses another scheme,
 * carries no token or a malformed one, or the key is not accepted.
 */
export function assertAuthorized(header: string | null, acceptedKeys: ReadonlySet<string>): void {
  // The usual header first: an accepted key is a b64token already, so nothing below could refuse it.
  if (header?.startsWith('Bearer ') === true && acceptedKeys.has(header.slice(7))) return
  if (header === null || header === '') {
    throw unauthorized('Missing API key: send it as "Authorization: Bearer <key>".')
  }
  const match = BEARER_CREDENTIALS.exec(header)
  if (match === null) {
    throw unauthorized(
      /^bearer\s*$/i.test(header)
        ? 'Missing API key: the Authorization header has the Bearer scheme but no token.'
        : 'Invalid Authorization header: expected the Bearer scheme, as "Authorization: Bearer <key>".',
    )
  }
  const token = match[1] ?? ''
  if (!B64TOKEN.test(token)) {
    throw unauthorized('Invalid API key: a bearer token is one word of letters, digits and -._~+/ characters.')
  }
  if (!acceptedKeys.has(token)) {
    throw unauthorized(
      acceptedKeys.size === 0
        ? 'Invalid API key: this scenario accepts no key.'
        : 'Invalid API key: the key is not accepted by this scenario.',
    )
  }
}
