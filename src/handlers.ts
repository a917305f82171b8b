// A namespace import: with msw 1, which has no `http`, a named one would fail
// before assertSupportedMsw() can say what to install.
import * as msw from 'msw'
import type { HttpHandler } from 'msw'
import type { Operations, Reply, SimRequest } from './operations.js'
import { isUnderBase, matchRoute, OPERATION_METHODS, type ApiBase, type OperationId } from './routes.js'

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
function fromFetch(request: Request, target: string): SimRequest {
  return {
    method: request.method,
    target,
    header: (name) => request.headers.get(name),
    signal: request.signal,
    bodyExceeds: (limit) => bodyExceeds(request, limit),
  }
}

/** Sends a body in ten pieces spread over `durationMs`. */
function pacedBody(bytes: Uint8Array, durationMs: number): ReadableStream<Uint8Array> {
  const pieces = 10
  const size = Math.ceil(bytes.length / pieces)
  let index = 0
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, durationMs / pieces))
      controller.enqueue(bytes.slice(index * size, (index + 1) * size))
      index++
      if (index * size >= bytes.length) controller.close()
    },
  })
}

/** An answer of the operations as a Fetch `Response`. */
function toResponse(reply: Reply, method: string): Response {
  if (reply.networkError) return Response.error()
  const { status, headers } = reply
  // As an HTTP server would: the status and headers of the answer, no body.
  if (reply.body === null || method === 'HEAD') return new Response(null, { status, headers })
  const bytes = typeof reply.body === 'string' ? new TextEncoder().encode(reply.body) : reply.body
  if (reply.paceMs !== undefined && bytes.length > 0) return new Response(pacedBody(bytes, reply.paceMs), { status, headers })
  // A Uint8Array from TextEncoder or our own cache: never a SharedArrayBuffer.
  return new Response(bytes as Uint8Array<ArrayBuffer>, { status, headers })
}

type Params = { param: string; target: string }

/**
 * The msw handlers of the Petstore Orders Service: list orders, cancel an
 * order, and the deprecated get-pet operation, then a catch-all that answers
 * what a real server would for any other request under the base. Each one
 * hands the request to the simulator's operations, which every transport
 * shares.
 */
export function createHandlers(base: ApiBase, operations: Operations): HttpHandler[] {
  const operation = (id: OperationId): HttpHandler =>
    (OPERATION_METHODS[id] === 'DELETE' ? msw.http.delete : msw.http.get)<Params>(
      ({ request }) => {
        const url = new URL(request.url)
        const match = matchRoute(url, base)
        return match?.operation === id ? { matches: true, params: { param: match.param ?? '', target: url.pathname + url.search } } : false
      },
      async ({ request, params }) => toResponse(await operations.operation(fromFetch(request, params.target), id, params.param), request.method),
    )
  const handlers = [operation('listOrders'), operation('cancelOrder'), operation('getPetById')]
  if (operations.answersUnknown) {
    // Last, so that handlers placed before it (or added with `server.use()`) win.
    handlers.push(
      msw.http.all(
        ({ request }) => isUnderBase(new URL(request.url), base),
        async ({ request }) => {
          const url = new URL(request.url)
          return toResponse(await operations.unknown(fromFetch(request, url.pathname + url.search), url), request.method)
        },
      ),
    )
  }
  return handlers
}
