import { bodyBytes, type Reply } from '../reply.js'
import { bodyOf } from './body-stream.js'
import { withCookies } from './fetch-response.js'
import { statusText } from './status-text.js'

/**
 * An answer as `sim.fetch` resolves with it: what a fetch over HTTP gets
 * from the standalone server, less the connection's own headers (Date,
 * Connection, Keep-Alive) and CORS: its status text, a Content-Length, and
 * `url`. Its body errors with the signal's reason when the signal aborts.
 */
export function fetchResponse(reply: Reply, method: string, url: string, signal: AbortSignal | undefined): Response {
  const { status } = reply
  const init: ResponseInit = { status, statusText: statusText(status), headers: withCookies(reply) }
  let response: Response
  // As the server sends them: no body for HEAD (nor its length), else a Content-Length.
  if (reply.body === null || method === 'HEAD') response = new Response(null, init)
  else {
    const bytes = bodyBytes(reply.body)
    const length = String(bytes.byteLength)
    // A forwarded answer's cookies are lines of their own; every other answer keeps its plain record.
    init.headers = reply.setCookie === undefined ? { ...reply.headers, 'Content-Length': length } : new Headers(init.headers)
    if (init.headers instanceof Headers) init.headers.set('Content-Length', length)
    response = new Response(bodyOf(reply, bytes, signal), init)
  }
  // Only a real fetch sets `url`; a made Response has "", and clients read it (ky's errors name it).
  Object.defineProperty(response, 'url', { value: url })
  return response
}
