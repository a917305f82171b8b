import { bodyBytes, type Reply } from '../reply.js'
import { bodyOf } from './body-stream.js'

/** A reply's headers, with a forwarded answer's Set-Cookie lines each its own. */
export function withCookies(reply: Reply): HeadersInit {
  if (reply.setCookie === undefined || reply.setCookie.length === 0) return reply.headers
  const headers = new Headers(reply.headers)
  for (const line of reply.setCookie) headers.append('Set-Cookie', line)
  return headers
}

/** An answer of the operations as a Fetch `Response`, as msw's handlers return it. */
export function toResponse(reply: Reply, method: string): Response {
  if (reply.networkError !== undefined) return Response.error()
  const { status } = reply
  const headers = withCookies(reply)
  // As an HTTP server would: the status and headers of the answer, no body.
  if (reply.body === null || method === 'HEAD') return new Response(null, { status, headers })
  return new Response(bodyOf(reply, bodyBytes(reply.body), undefined), { status, headers })
}
