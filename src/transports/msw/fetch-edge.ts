import { bodyBytes, PACE_PIECES, pacedPieces, type Reply, type SimRequest } from '../../core/reply.js'

/**
 * The size of a request body, read no further than one byte past `limit`.
 * Fetch computes Content-Length only when sending, so in process the header
 * is absent and the body itself has to be measured.
 */
async function bodyExceeds(request: Request, limit: number): Promise<boolean> {
  const declared = request.headers.get('Content-Length')
  if (declared !== null) return Number(declared) > limit
  if (request.body === null) return false
  const reader = request.body.getReader()
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return false
    size += value.byteLength
    if (size > limit) {
      // Not awaited: msw hands handlers a tee'd body, and cancelling one branch
      // of a tee settles only once the other branch is cancelled too.
      void reader.cancel().catch(() => undefined)
      return true
    }
  }
}

/** What the operations read of a Fetch request; `target` is its path and query. */
export function fromFetch(request: Request, target: string): SimRequest {
  return {
    method: request.method,
    target,
    header: (name) => request.headers.get(name),
    signal: request.signal,
    bodyExceeds: (limit) => bodyExceeds(request, limit),
  }
}

/** A paced body as a stream: one piece every `paceMs / PACE_PIECES`. */
function pacedStream(bytes: Uint8Array, paceMs: number): ReadableStream<Uint8Array> {
  const pieces = pacedPieces(bytes)
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, paceMs / PACE_PIECES))
      controller.enqueue(pieces.shift() as Uint8Array)
      if (pieces.length === 0) controller.close()
    },
  })
}

/** An answer of the operations as a Fetch `Response`. */
export function toResponse(reply: Reply, method: string): Response {
  if (reply.networkError) return Response.error()
  const { status, headers } = reply
  // As an HTTP server would: the status and headers of the answer, no body.
  if (reply.body === null || method === 'HEAD') return new Response(null, { status, headers })
  const bytes = bodyBytes(reply.body)
  if (reply.paceMs !== undefined && bytes.length > 0) return new Response(pacedStream(bytes, reply.paceMs), { status, headers })
  // A Uint8Array from TextEncoder or our own cache: never a SharedArrayBuffer.
  return new Response(bytes as Uint8Array<ArrayBuffer>, { status, headers })
}
