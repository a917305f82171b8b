import { bodyBytes, type Reply } from '../reply.js'
import { bodyOf } from './body-stream.js'

/** An answer of the operations as a Fetch `Response`, as msw's handlers return it. */
export function toResponse(reply: Reply, method: string): Response {
  if (reply.networkError !== undefined) return Response.error()
  const { status, headers } = reply
  // As an HTTP server would: the status and headers of the answer, no body.
  if (reply.body === null || method === 'HEAD') return new Response(null, { status, headers })
  return new Response(bodyOf(reply, bodyBytes(reply.body), undefined), { status, headers })
}
