import { PACE_PIECES, pacedPieces, type Reply } from '../reply.js'

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
export function bodyOf(reply: Reply, bytes: Uint8Array, signal: AbortSignal | undefined): BodyInit {
  if (reply.paceMs !== undefined && bytes.length > 0) return bodyStream(pacedPieces(bytes), reply.paceMs / PACE_PIECES, signal)
  if (signal !== undefined) return bodyStream([bytes], 0, signal)
  // A Uint8Array from TextEncoder or our own cache: never a SharedArrayBuffer.
  return bytes as Uint8Array<ArrayBuffer>
}
