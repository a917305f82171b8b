import type { ServerResponse } from 'node:http'
import { errorReply } from '../../core/api-error.js'
import { unsendableReply } from '../../core/fetch/unsendable-reply.js'
import { PACE_PIECES, pacedPieces, type Reply } from '../../core/reply.js'

// Node's side of writing every HTTP answer (node-edge.ts re-exports it): whatever a reply holds, writing it never throws.

/** Writes the pieces of a paced body one every `paceMs / PACE_PIECES`, stopping if the client leaves. */
function writePaced(res: ServerResponse, body: Uint8Array, paceMs: number): void {
  const pieces = pacedPieces(body)
  const next = () => {
    if (res.destroyed) return
    res.write(pieces.shift() as Uint8Array)
    if (pieces.length === 0) res.end()
    else setTimeout(next, paceMs / PACE_PIECES)
  }
  setTimeout(next, paceMs / PACE_PIECES)
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({})

/**
 * Answers in place of a reply whose status or headers `writeHead` refused
 * (unsendable-reply.ts), and returns what it threw. The headers it may have
 * set before throwing are taken off first (never those set before the reply);
 * the Error goes with the CORS headers, else (were they refused) without,
 * else the connection is dropped: nothing here throws or calls itself again.
 */
function answerUnsendable(
  res: ServerResponse,
  reply: Reply,
  head: string[],
  cors: Readonly<Record<string, string>>,
  error: unknown,
): Error {
  const thrown = error instanceof Error ? error : new Error(String(error))
  // Another answer's head went out already (a caller's bug): nothing can be said on it any more.
  if (res.headersSent) return thrown
  for (let index = 0; index < head.length; index += 2) res.removeHeader(head[index] as string)
  const answer = unsendableReply(reply, thrown)
  const length = String(Buffer.byteLength(answer.body))
  for (const extra of [cors, NO_HEADERS]) {
    try {
      res.writeHead(answer.status, { ...extra, ...answer.headers, 'Content-Length': length })
      res.end(answer.body)
      return thrown
    } catch {
      // Tried again without the CORS headers, then given up.
    }
  }
  res.destroy()
  return thrown
}

/**
 * Writes an answer to Node's response: `headers` (the CORS ones) and the
 * reply's in one `writeHead`, with Content-Length when it has a body, then
 * the body, at once or paced. A network failure drops the connection, as a
 * client sees one. Headers set before (`res.setHeader`) are kept. Never
 * throws for the reply's status or headers: one Node refuses is answered 502
 * or 500 instead (unsendable-reply.ts), and what Node threw is returned for
 * the caller to report; null when the reply went as it is.
 */
export function writeReply(res: ServerResponse, reply: Reply, headers: Readonly<Record<string, string>> = NO_HEADERS): Error | null {
  if (reply.networkError !== undefined) {
    res.socket?.destroy()
    return null
  }
  const head: string[] = []
  for (const name in headers) head.push(name, headers[name] as string)
  for (const name in reply.headers) head.push(name, reply.headers[name] as string)
  for (const line of reply.setCookie ?? []) head.push('Set-Cookie', line)
  const body = reply.body === null ? null : typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body
  if (body !== null) head.push('Content-Length', String(body.byteLength))
  try {
    res.writeHead(reply.status, head)
  } catch (error) {
    return answerUnsendable(res, reply, head, headers, error)
  }
  if (body === null) res.end()
  else if (reply.paceMs !== undefined && body.byteLength > 0) writePaced(res, body, reply.paceMs)
  else res.end(body)
  return null
}

/** Sends any thrown value as an Error body (an `ApiError` as itself, anything else as a 500). */
export function sendError(res: ServerResponse, error: unknown): void {
  writeReply(res, errorReply(error))
}
