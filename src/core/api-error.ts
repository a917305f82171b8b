import { ErrorCode } from './error-codes.js'
import type { ErrorBody } from './glossary.js'
import type { Reply } from './reply.js'

/**
 * An error that becomes one HTTP response with the specification's Error
 * body. Operations throw it; `errorReply` renders it.
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

/** The answer to anything that is not an `ApiError`: a bug of the simulator, told without a stack trace. */
function internalError(): ApiError {
  return new ApiError(
    500,
    ErrorCode.InternalError,
    'The simulator failed to handle this request. This is a bug in the simulator, not in your request.',
  )
}

/** The 400 of a request the simulator cannot read. */
export function invalidRequest(message: string): ApiError {
  return new ApiError(400, ErrorCode.InvalidRequest, message)
}

/** The 413 of a body over the limit, whichever transport measured it. */
export function payloadTooLarge(limit: number): ApiError {
  return new ApiError(413, ErrorCode.PayloadTooLarge, `The request body is larger than ${limit} bytes.`)
}

/**
 * The one renderer of Error bodies: any thrown value as a JSON answer. Each
 * transport only writes the `Reply` out.
 */
export function errorReply(error: unknown, extraHeaders: Readonly<Record<string, string>> = {}): Reply & { body: string } {
  const apiError = error instanceof ApiError ? error : internalError()
  return {
    status: apiError.status,
    headers: { ...extraHeaders, ...apiError.headers, 'Content-Type': 'application/json' },
    body: JSON.stringify(apiError.body),
  }
}

/** The 404 of an order id no order has, for the API's cancel and the admin API alike. */
export function orderNotFound(id: string): ApiError {
  return new ApiError(404, ErrorCode.OrderNotFound, `Order ${id} was not found.`)
}
