import type { RequestHandler as ExpressMiddleware } from 'express'
import { invalidRequest, payloadTooLarge } from '../../core/api-error.js'

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
    if (declared !== undefined && Number(declared) > limit) {
      // Not read at all; Node discards the rest once the answer is sent.
      next(payloadTooLarge(limit))
      return
    }
    const chunks: Buffer[] = []
    let size = 0
    let done = false
    const finish = (error?: unknown) => {
      if (done) return
      done = true
      req.off('data', onData)
      if (error === undefined) req.body = Buffer.concat(chunks, size)
      next(error)
    }
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > limit) finish(payloadTooLarge(limit))
      else chunks.push(chunk)
    }
    req.on('data', onData)
    req.once('end', () => finish())
    req.once('error', () => finish(invalidRequest('The request body could not be read.')))
  }
}
