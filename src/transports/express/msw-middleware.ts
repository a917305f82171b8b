import type { RequestHandler as ExpressMiddleware, Request as ExpressRequest, Response as ExpressResponse } from 'express'
// A namespace import, as in handlers.ts.
import * as msw from 'msw'
import type { RequestHandler } from 'msw'
import { invalidRequest } from '../../core/api-error.js'
import { fetchHeaders, requestUrl } from '../node/node-edge.js'

/**
 * Serves msw request handlers from express, through msw's public
 * `getResponse`. It replaces @mswjs/http-middleware, whose bridge (express
 * request -> Fetch Request -> web stream -> express response) profiled as the
 * server's main cost, which writes `Response.error()` as status 0 (a crash),
 * loads a second express and msw's CommonJS build, and calls a function msw 3
 * removed.
 *
 * - A request no handler answers goes on to the next express middleware.
 * - `Response.error()` resets the connection: what a client sees of a network failure.
 * - Anything a handler throws reaches express's error handlers.
 * @note Mount it at the root: it builds the URL from `req.originalUrl`.
 */
export function mswMiddleware(handlers: readonly RequestHandler[]): ExpressMiddleware {
  const list = [...handlers]
  return (req, res, next) => {
    let request: Request
    try {
      request = toFetchRequest(req)
    } catch {
      next(invalidRequest('The Host header or the request target is not a valid URL.'))
      return
    }
    msw
      .getResponse(list, request)
      .then(async (response) => {
        if (response === undefined || response.headers.get('x-msw-intention') === 'passthrough') {
          next()
          return
        }
        if (response.type === 'error') {
          req.socket.destroy()
          return
        }
        res.statusCode = response.status
        for (const [name, value] of response.headers) {
          if (name !== 'set-cookie') res.setHeader(name, value)
        }
        const cookies = response.headers.getSetCookie()
        if (cookies.length > 0) res.setHeader('Set-Cookie', cookies)
        await writeBody(res, response.body)
      })
      .catch(next)
  }
}

/**
 * Streams a body out without concatenating it first: a body made from bytes
 * arrives as one chunk, which is sent as is (with a Content-Length); larger
 * streams go out chunk by chunk.
 */
async function writeBody(res: ExpressResponse, body: ReadableStream<Uint8Array> | null): Promise<void> {
  if (body === null) {
    res.end()
    return
  }
  const reader = body.getReader()
  const first = await reader.read()
  if (first.done) {
    res.end()
    return
  }
  const view = (chunk: Uint8Array) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
  let next = await reader.read()
  if (next.done) {
    res.end(view(first.value))
    return
  }
  res.write(view(first.value))
  while (!next.done) {
    res.write(view(next.value))
    next = await reader.read()
  }
  res.end()
}

function toFetchRequest(req: ExpressRequest): Request {
  // From the request-target alone: routing never reads the Host header.
  const url = requestUrl(req.originalUrl)
  // From the raw list: Node's req.headers keeps only the first Authorization.
  const headers = fetchHeaders(req.rawHeaders)
  const body: unknown = req.body
  // A Buffer from readBody: backed by an ArrayBuffer, never a SharedArrayBuffer.
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD' && Buffer.isBuffer(body) && body.length > 0
  return new Request(url, { method: req.method, headers, ...(hasBody ? { body: body as Uint8Array<ArrayBuffer> } : {}) })
}
