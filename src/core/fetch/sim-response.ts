import { bodyBytes, type Reply } from '../reply.js'
import { bodyOf } from './body-stream.js'
import { sendableResponse, sentWithoutBody, withCookies } from './fetch-response.js'
import { statusText } from './status-text.js'

/** The `Response` of a reply Fetch takes as it is. */
function madeResponse(reply: Reply, method: string, signal: AbortSignal | undefined): Response {
  const { status } = reply
  const init: ResponseInit = { status, statusText: statusText(status), headers: withCookies(reply) }
  // As the server sends them: no body for HEAD, a 204 or a 304 (nor its length), else a Content-Length.
  const body = sentWithoutBody(reply, method) ? null : reply.body
  if (body === null) return new Response(null, init)
  const bytes = bodyBytes(body)
  const length = String(bytes.byteLength)
  // A forwarded answer's cookies are lines of their own; every other answer keeps its plain record.
  init.headers = reply.setCookie === undefined ? { ...reply.headers, 'Content-Length': length } : new Headers(init.headers)
  if (init.headers instanceof Headers) init.headers.set('Content-Length', length)
  return new Response(bodyOf(reply, bytes, signal), init)
}

/**
 * An answer as `sim.fetch` resolves with it: what a fetch over HTTP gets
 * from the standalone server, less the connection's own headers (Date,
 * Connection, Keep-Alive) and CORS: its status text, a Content-Length, and
 * `url`. Its body errors with the signal's reason when the signal aborts.
 * A status or header Fetch refuses is answered as the server answers it
 * (unsendable-reply.ts), `unsendable` told of what Fetch threw.
 */
export function fetchResponse(
  reply: Reply,
  method: string,
  url: string,
  signal: AbortSignal | undefined,
  unsendable?: (error: unknown) => void,
): Response {
  const response = sendableResponse(reply, (sent) => madeResponse(sent, method, signal), unsendable)
  // Only a real fetch sets `url`; a made Response has "", and clients read it (ky's errors name it).
  Object.defineProperty(response, 'url', { value: url })
  return response
}
