import { quote } from '../quote-value.js'
import { systemErrorCode } from '../system-error-code.js'
import { HEADER_TOKEN, HEADER_VALUE, hopByHop } from '../http-headers.js'

// What of a proxy target's answer is passed back, and what makes it no answer to pass back at all:
// whatever the target sends, the transports must be able to send it on (or refuse it with an Error body).

/** Answer headers the transport sets for the body passed back, and Set-Cookie, passed back line by line. */
const NOT_PASSED_BACK = new Set(['content-length', 'set-cookie', 'content-security-policy'])
/** The codings Fetch (undici) decodes; an answer in only these arrives decoded. */
const DECODED_CODINGS = new Set(['gzip', 'x-gzip', 'deflate', 'br', 'zstd', 'identity'])

/**
 * What every passed-back answer carries. Served on the simulator's own origin,
 * a page the target sent would be same-origin with `/__sim`; sandboxed, its
 * origin is opaque. The target's own policy is dropped, so nothing can loosen it.
 */
const SANDBOX_POLICY = 'sandbox'

/** The target's answer headers, less those of its connection and those the simulator owns. */
export function passedBackHeaders(answer: Headers): Record<string, string> {
  const isHop = hopByHop(answer.get('connection'))
  const codings = (answer.get('content-encoding') ?? '').split(',').map((coding) => coding.trim().toLowerCase())
  const decoded = codings.every((coding) => coding === '' || DECODED_CODINGS.has(coding))
  const headers: Record<string, string> = {}
  for (const [name, value] of answer) {
    // The simulator answers CORS itself: the target's would be a second, conflicting set.
    if (isHop(name) || NOT_PASSED_BACK.has(name) || name.startsWith('access-control-')) continue
    if (name === 'content-encoding' && decoded) continue
    // defineProperty: a "__proto__" header stays a plain own property.
    Object.defineProperty(headers, name, {
      value: Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value,
      enumerable: true,
      writable: true,
      configurable: true,
    })
  }
  headers['content-security-policy'] = SANDBOX_POLICY
  return headers
}

/** A header name as a message shows it: never when it holds the key (Fetch gives names in lower case). */
function shownName(name: string, key: string | undefined): string {
  return key !== undefined && key !== '' && name.includes(key.toLowerCase()) ? '(its name not shown: it holds the proxy key)' : quote(name)
}

/**
 * Why an answer cannot be passed back (a status Fetch cannot hold, a header
 * name or value Node's `writeHead` refuses), for the message; null when it can.
 * Checked as Node checks, here because the core imports no `node:http`.
 */
export function unsendable(status: number, headers: Headers, key: string | undefined): string | null {
  if (status < 200 || status > 599) return `with status ${status}, which is no final HTTP status (200 to 599)`
  for (const [name, value] of headers) {
    if (!HEADER_TOKEN.test(name)) return `with a header name that is not an HTTP token: ${shownName(name, key)}`
    if (!HEADER_VALUE.test(value)) return `with a control character in the value of its header ${shownName(name, key)}`
  }
  return null
}

/**
 * undici's codes of an answer it could not read as HTTP, beside llhttp's `HPE_*`
 * (a bad status line, header or chunk framing).
 */
const UNREADABLE_ANSWER = new Set([
  'UND_ERR_HEADERS_OVERFLOW', // headers past Node's limit (--max-http-header-size, 16 KiB by default)
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', // a body unlike its Content-Length
  'ERR_ASSERTION', // undici's own check of a status line whose status is not three digits
])

/** How many bytes a connection had read when undici gave up on it (its SocketError says), else 0. */
function bytesRead(cause: unknown): number {
  const socket = typeof cause === 'object' && cause !== null && 'socket' in cause ? cause.socket : undefined
  if (typeof socket !== 'object' || socket === null || !('bytesRead' in socket)) return 0
  return typeof socket.bytesRead === 'number' ? socket.bytesRead : 0
}

/**
 * Whether a forward failed on what the target sent (not HTTP, or cut off)
 * rather than on reaching it. `answered`: its status and headers had come, so
 * a failure reading the body is the answer's. A connection closed before a
 * byte came is no answer at all: the target is as good as unreachable.
 */
export function isBadAnswer(cause: unknown, answered: boolean): boolean {
  if (answered) return true
  // Newer undici (Node 24) throws its HTTP parser's error without a code: its name says what it is.
  if (cause instanceof Error && cause.name === 'HTTPParserError') return true
  const code = systemErrorCode(cause)
  if (code === undefined) return false
  return code.startsWith('HPE_') || UNREADABLE_ANSWER.has(code) || (code === 'UND_ERR_SOCKET' && bytesRead(cause) > 0)
}
