import type { RequestHandler as ExpressMiddleware } from 'express'
import { ApiError } from './api-error.js'
import { ErrorCode } from './error-codes.js'

/**
 * Reads every request body, whatever its type, into `req.body` as a Buffer,
 * refusing one over `limit` bytes with 413. Requests without a body cost
 * nothing; body-parser's type and charset handling is not needed, since no
 * operation reads a body and the admin API parses its own JSON.
 */
export function readBody(limit: number): ExpressMiddleware {
  return (req, _res, next) => {
    const declared = req.headers['content-length']
    if (declared === undefined && req.headers['transfer-encoding'] === undefined) {
      next()
      return
    }
    const tooLarge = () => new ApiError(413, ErrorCode.PayloadTooLarge, `The request body is larger than ${limit} bytes.`)
    if (declared !== undefined && Number(declared) > limit) {
      // Not read at all; Node discards the rest once the answer is sent.
      next(tooLarge())
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (error?: ApiError) => {
      if (done) return
      done = true
      req.off('data', onData)
      if (error === undefined) req.body = Buffer.concat(chunks, size)
      next(error)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) finish(tooLarge())
      else chunks.push(chunk)
    }
    req.on('data', onData)
    req.once('end', () => finish())
    req.once('error', () => finish(new ApiError(400, ErrorCode.InvalidRequest, 'The request body could not be read.')))
  }
}
