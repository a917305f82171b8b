import type { SimRequest } from '../reply.js'

/** Reads the body until it is past `limit` bytes; null once it is, else the whole body. */
async function readWithin(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | null> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer())
    size += value.byteLength
    if (size > limit) {
      // Not awaited: msw hands handlers a tee'd body, and cancelling one branch
      // of a tee settles only once the other branch is cancelled too.
      void reader.cancel().catch(() => undefined)
      return null
    }
    chunks.push(value)
  }
}

/**
 * What the operations read of a Fetch request; `target` is its path and query.
 * Whether the body is over a limit is answered without reading it when
 * Content-Length says (Fetch computes it only when sending, so in process it
 * is often absent), else by reading no further than one byte past the limit;
 * synchronous without a body (a GET, a DELETE), so the whole answer can be.
 * The bytes read are kept for `body()`, which only forwarding calls.
 */
export function fromFetch(request: Request, target: string): SimRequest {
  let read: Promise<Uint8Array | null> | undefined
  const body = (): Promise<Uint8Array | null> => {
    read ??= request.body === null ? Promise.resolve(null) : request.arrayBuffer().then((bytes) => new Uint8Array(bytes))
    return read
  }
  return {
    method: request.method,
    target,
    header: (name) => request.headers.get(name),
    signal: request.signal,
    bodyExceeds(limit) {
      const declared = request.headers.get('Content-Length')
      if (declared !== null) return Number(declared) > limit
      if (request.body === null) return false
      const within = readWithin(request.body, limit)
      read = within
      return within.then((bytes) => bytes === null)
    },
    headerPairs: () => request.headers,
    body,
  }
}
