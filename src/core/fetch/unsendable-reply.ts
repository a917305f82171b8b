import { ApiError, errorReply } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import type { Reply } from '../reply.js'

/**
 * What is answered instead of a reply a transport refuses to send (Node's
 * `writeHead`, Fetch's `Response`: a header name or value, a status): 502
 * `proxy_bad_answer` for a forwarded answer, which the simulator did not make,
 * else 500 `internal_error`, for the caller to report. Never a throw: over
 * HTTP one would end the server.
 */
export function unsendableReply(reply: Reply, error: unknown): Reply & { body: string } {
  // Only a forwarded answer carries its Set-Cookie lines apart (reply.ts).
  if (reply.setCookie !== undefined)
    return errorReply(
      new ApiError(502, ErrorCode.ProxyBadAnswer, 'The proxy target answered with a status or header that cannot be sent on.'),
    )
  return errorReply(error instanceof ApiError ? new Error(error.message) : error)
}
