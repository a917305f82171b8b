import type { ErrorBody } from './glossary.js'
import { ErrorCode } from './error-codes.js'
import type { Reply } from './operations.js'

/**
 * An error that becomes one HTTP response with the specification's Error
 * body. Resolvers throw it; `toErrorResponse` renders it.
 */
export class ApiError extends Error {
  override name = 'ApiError'

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message)
  }

  get body(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status }
  }
}

/**
 * Renders any thrown value as a JSON Error answer. Anything that is not an
 * `ApiError` becomes a 500 `internal_error` whose message never carries a
 * stack trace.
 */
export function errorReply(error: unknown, extraHeaders: Readonly<Record<string, string>> = {}): Reply & { body: string } {
  const apiError =
    error instanceof ApiError
      ? error
      : new ApiError(500, ErrorCode.InternalError, 'The simulator failed to handle this request. This is a bug in the simulator, not in your request.')
  return {
    status: apiError.status,
    headers: { ...extraHeaders, ...apiError.headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(apiError.body),
  }
}

/** `errorReply` as a Fetch `Response`. */
export function toErrorResponse(error: unknown, extraHeaders: Readonly<Record<string, string>> = {}): Response {
  const { status, headers, body } = errorReply(error, extraHeaders)
  return new Response(body, { status, headers })
}
