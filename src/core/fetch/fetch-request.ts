import type { SimRequest } from '../reply.js'

/** Reads the body until it is past `limit` bytes: only a body without a declared length is read. */
async function streamExceeds(body: ReadableStream<Uint8Array>, limit: number): Promise<boolean> {
  const reader = body.getReader()
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

/**
 * Whether a request body is larger than `limit`, read no further than one byte past it.
 * Fetch computes Content-Length only when sending, so in process the header
 * is often absent and the body itself has to be measured. Synchronous without
 * a body to read (a GET, a DELETE): then the whole answer can be.
 */
function bodyExceeds(request: Request, limit: number): boolean | Promise<boolean> {
  const declared = request.headers.get('Content-Length')
  if (declared !== null) return Number(declared) > limit
  if (request.body === null) return false
  return streamExceeds(request.body, limit)
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
