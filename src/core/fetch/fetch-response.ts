import { bodyBytes, PACE_PIECES, pacedPieces, type Reply } from '../reply.js'
import { statusText } from './status-text.js'

/**
 * A body as a stream: its pieces one every `everyMs` (a `slow-body` fault),
 * erroring with the signal's reason once it aborts, as a real fetch's body
 * does even when its bytes have all arrived.
 */
function bodyStream(pieces: Uint8Array[], everyMs: number, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let timer: ReturnType<typeof setTimeout> | undefined
  let unlisten = () => {}
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (signal === undefined) return
      const abort = () => {
        clearTimeout(timer)
        controller.error(signal.reason)
      }
      signal.addEventListener('abort', abort, { once: true })
      unlisten = () => signal.removeEventListener('abort', abort)
    },
    async pull(controller) {
      // Closed only once the last piece is read: until then an abort still errors the body, as a real fetch's.
      if (pieces.length === 0) {
        unlisten()
        controller.close()
        return
      }
      if (everyMs > 0) await new Promise((resolve) => (timer = setTimeout(resolve, everyMs)))
      controller.enqueue(pieces.shift() as Uint8Array)
    },
    cancel() {
      clearTimeout(timer)
      unlisten()
    },
  })
}

/** The body of a reply as Fetch takes it: bytes, or a stream when it is paced or may be aborted. */
function bodyOf(reply: Reply, bytes: Uint8Array, signal: AbortSignal | undefined): BodyInit {
  if (reply.paceMs !== undefined && bytes.length > 0) return bodyStream(pacedPieces(bytes), reply.paceMs / PACE_PIECES, signal)
  if (signal !== undefined) return bodyStream([bytes], 0, signal)
  // A Uint8Array from TextEncoder or our own cache: never a SharedArrayBuffer.
  return bytes as Uint8Array<ArrayBuffer>
}

/** An answer of the operations as a Fetch `Response`, as msw's handlers return it. */
export function toResponse(reply: Reply, method: string): Response {
  if (reply.networkError !== undefined) return Response.error()
  const { status, headers } = reply
  // As an HTTP server would: the status and headers of the answer, no body.
  if (reply.body === null || method === 'HEAD') return new Response(null, { status, headers })
  return new Response(bodyOf(reply, bodyBytes(reply.body), undefined), { status, headers })
}

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
