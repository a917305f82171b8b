import type { IncomingMessage, ServerResponse } from 'node:http'
import { EXPOSED_HEADERS } from '../../core/cors.js'
import type { Reply } from '../../core/reply.js'
import { rawHeader, sendReply, setCorsHeaders } from './node-edge.js'

/** The last head `writeReply` made for a request without an Origin, and what it was made from. */
export interface HeadMemo {
  status: number
  headers: Reply['headers'] | null
  length: number
  head: string[]
}

export function headMemo(): HeadMemo {
  return { status: 0, headers: null, length: -1, head: [] }
}

/** The head of an answer: the CORS headers (the Origin reflected, or `*`), the reply's, and Content-Length when it has a body. */
function headOf(origin: string | null, reply: Reply, length: number): string[] {
  const head =
    origin === null
      ? ['Access-Control-Allow-Origin', '*', 'Access-Control-Expose-Headers', EXPOSED_HEADERS]
      : [
          'Access-Control-Allow-Origin',
          origin,
          'Access-Control-Allow-Credentials',
          'true',
          'Vary',
          'Origin',
          'Access-Control-Expose-Headers',
          EXPOSED_HEADERS,
        ]
  for (const name in reply.headers) head.push(name, reply.headers[name] as string)
  if (length !== -1) head.push('Content-Length', String(length))
  return head
}

/**
 * Writes an answer to a response nothing has written to yet: the CORS
 * headers, the reply's and Content-Length in one `writeHead`, then the body
 * in one `end`. A paced body or a dropped connection goes through `sendReply`.
 * With a `memo`, a head equal to the last one made (same status, same headers
 * object, same length, no Origin: what a load repeats) is not made again;
 * Node only reads it.
 */
export function writeReply(req: IncomingMessage, res: ServerResponse, reply: Reply, memo?: HeadMemo): void {
  if (reply.networkError !== undefined || reply.paceMs !== undefined) {
    setCorsHeaders(req, res)
    sendReply(res, reply)
    return
  }
  const origin = rawHeader(req.rawHeaders, 'origin')
  const body = reply.body === null ? null : typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body
  const length = body === null ? -1 : body.byteLength
  let head: string[]
  if (origin !== null || memo === undefined) head = headOf(origin, reply, length)
  else if (memo.headers === reply.headers && memo.status === reply.status && memo.length === length) head = memo.head
  else {
    head = headOf(null, reply, length)
    memo.status = reply.status
    memo.headers = reply.headers
    memo.length = length
    memo.head = head
  }
  res.writeHead(reply.status, head)
  if (body === null) res.end()
  else res.end(body)
}
