import type { SimRequest } from '../reply.js'

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
