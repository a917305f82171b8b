import type { Response as ExpressResponse } from 'express'
import { stringify } from 'lossless-json'
import { toErrorResponse } from './api-error.js'

/** Writes a Fetch `Response` out through express. */
export async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.status(response.status)
  response.headers.forEach((value, name) => res.setHeader(name, value))
  res.end(Buffer.from(await response.arrayBuffer()))
}

/** Sends any thrown value as an Error body (an `ApiError` as itself, anything else as a 500). */
export function sendError(res: ExpressResponse, error: unknown): void {
  void sendResponse(res, toErrorResponse(error))
}

/** Sends a JSON value that may hold bigints (int64 ids beyond 2^53). */
export function sendJson(res: ExpressResponse, status: number, value: unknown): void {
  res.status(status).type('application/json').send(stringify(value) ?? 'null')
}
