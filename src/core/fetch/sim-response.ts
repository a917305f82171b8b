import { bodyBytes, type Reply } from '../reply.js'
import { bodyOf } from './body-stream.js'
import { statusText } from './status-text.js'

/**
 * An answer as `sim.fetch` resolves with it: what a fetch over HTTP gets
 * from the standalone server, less the connection's own headers (Date,
 * Connection, Keep-Alive) and CORS: its status text, a Content-Length, and
 * `url`. Its body errors with the signal's reason when the signal aborts.
 */
export function fetchResponse(reply: Reply, method: string, url: string, signal: AbortSignal | undefined): Response {
  const { status } = reply
  const init = { status, statusText: statusText(status), headers: reply.headers }
  let response: Response
  // As the server sends them: no body for HEAD (nor its length), else a Content-Length.
  if (reply.body === null || method === 'HEAD') response = new Response(null, init)
  else {
    const bytes = bodyBytes(reply.body)
    init.headers = { ...reply.headers, 'Content-Length': String(bytes.byteLength) }
    response = new Response(bodyOf(reply, bytes, signal), init)
  }
  // Only a real fetch sets `url`; a made Response has "", and clients read it (ky's errors name it).
  Object.defineProperty(response, 'url', { value: url })
  return response
}
