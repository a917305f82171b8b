import { bodyBytes, type Reply } from '../reply.js'
import { bodyOf } from './body-stream.js'
import { unsendableReply } from './unsendable-reply.js'

/** Statuses a Fetch `Response` takes no body with, not even an empty one (a forwarded 204 or 304 comes with one). */
const NULL_BODY_STATUSES = new Set([204, 205, 304])

/** Whether a reply is answered without a body, as an HTTP server sends it: none, a HEAD's, or a status that has none. */
export function sentWithoutBody(reply: Reply, method: string): boolean {
  return reply.body === null || method === 'HEAD' || NULL_BODY_STATUSES.has(reply.status)
}

/** A reply's headers, with a forwarded answer's Set-Cookie lines each its own. */
export function withCookies(reply: Reply): HeadersInit {
  if (reply.setCookie === undefined || reply.setCookie.length === 0) return reply.headers
  const headers = new Headers(reply.headers)
  for (const line of reply.setCookie) headers.append('Set-Cookie', line)
  return headers
}

/**
 * A Fetch `Response` made by `make`, or, when Fetch refuses the reply's status
 * or headers (a TypeError or RangeError), one of the Error that stands for it
 * (unsendable-reply.ts); `unsendable` is told what Fetch threw for a reply the
 * simulator made, a bug to report. Never throws for what a reply holds.
 */
export function sendableResponse(reply: Reply, make: (reply: Reply) => Response, unsendable?: (error: unknown) => void): Response {
  try {
    return make(reply)
  } catch (error) {
    // A forwarded answer's (it carries its Set-Cookie lines apart) is the target's fault, answered 502: no bug.
    if (reply.setCookie === undefined) unsendable?.(error)
    return make(unsendableReply(reply, error))
  }
}

/** An answer of the operations as a Fetch `Response`, as msw's handlers return it. */
export function toResponse(reply: Reply, method: string): Response {
  if (reply.networkError !== undefined) return Response.error()
  return sendableResponse(reply, (sent) => {
    const init = { status: sent.status, headers: withCookies(sent) }
    // As an HTTP server would: the status and headers of the answer, no body.
    const body = sentWithoutBody(sent, method) ? null : sent.body
    return new Response(body === null ? null : bodyOf(sent, bodyBytes(body), undefined), init)
  })
}
