import { ApiError, errorReply, invalidRequest } from '../api-error.js'
import { ErrorCode } from '../error-codes.js'
import { systemErrorCode } from '../system-error-code.js'
import { systemTime, type TimeSource } from '../time-source.js'
import type { AnswerBudget } from './answer-budget.js'
import { hopByHop } from '../http-headers.js'
import { isBadAnswer, passedBackHeaders, unsendable } from './target-answer.js'

/** The request as the client sent it, relative to the API base. */
export interface ForwardRequest {
  method: string
  /** Path and query under the base, as sent: "/store/inventory?x=1" ("" or "?..." for the base itself). */
  target: string
  /** Every header the client sent, any case; a repeated one as several pairs or joined with ", ". */
  headers: Iterable<readonly [string, string]>
  body: Uint8Array | null
  /** Aborts when the client gives up: forwarding stops and the abort's reason is thrown. */
  signal?: AbortSignal
}

export interface ProxyOptions {
  /** The real deployment's base URL ("https://staging.example.test/v1"); a trailing "/" is ignored. */
  target: string
  /** The real service's key: replaces the client's Authorization. Never in a message. */
  key?: string
  /** Default 10 s, headers and body. */
  timeoutMs?: number
  /** Default 32 MiB, counted as the decoded body arrives. */
  maxAnswerBytes?: number
  /** What the timeout waits by; the machine's by default. */
  time?: TimeSource
  /** Shared by every answer being read at once (one per proxy setup): past it, 503 `service_unavailable`. */
  budget?: AnswerBudget
}

type ProxyFailure =
  | typeof ErrorCode.ProxyTimeout
  | typeof ErrorCode.ProxyUnreachable
  | typeof ErrorCode.ProxyAnswerTooLarge
  | typeof ErrorCode.ProxyBadAnswer
  | typeof ErrorCode.ServiceUnavailable

/** The answer to pass back: the target's (minus hop-by-hop headers, plus a sandboxing CSP), or one of the five Error answers. */
export interface ForwardedAnswer {
  status: number
  /** Lower-case names; repeated ones joined with ", " (Set-Cookie apart, below). */
  headers: Record<string, string>
  /** Each Set-Cookie line, which cannot be joined. */
  setCookie: string[]
  body: Uint8Array
  /** Set when the target gave no usable answer and `body` is the Error body saying why. */
  failure?: ProxyFailure
}

/** How long a forwarded request may take, answer body included, unless the option says. */
export const DEFAULT_PROXY_TIMEOUT_MS = 10_000
const MAX_PROXY_ANSWER_BYTES = 32 * 1024 * 1024

/**
 * Not the client's to send on: the target's Host is used, Fetch frames the
 * body and negotiates the encoding it decodes, `Expect` is the simulator's
 * server's, and msw's marker is msw's.
 */
const NOT_FORWARDED = new Set(['host', 'content-length', 'expect', 'accept-encoding', 'x-msw-intention'])
const UNSENDABLE_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])

/** Prefer without its `code=` preference: that one steers the simulator (`Prefer: code=409`), never the real service. */
function withoutCodePreference(value: string): string {
  return value
    .split(',')
    .filter((preference) => !/^\s*code\s*(?:[=;]|$)/i.test(preference))
    .join(',')
    .trim()
}

/** The headers sent to the target. */
function outgoingHeaders(incoming: Iterable<readonly [string, string]>, key: string | undefined): Headers {
  const pairs = [...incoming]
  const connection = pairs.filter(([name]) => name.toLowerCase() === 'connection').map(([, value]) => value)
  const isHop = hopByHop(connection.length === 0 ? null : connection.join(','))
  const headers = new Headers()
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase()
    // x-sim-*: the simulator's own (X-Sim-Session picks a session here, it means nothing there); ":" pseudo-headers are HTTP/2's.
    if (isHop(lower) || NOT_FORWARDED.has(lower) || lower.startsWith('x-sim-') || lower.startsWith(':')) continue
    if (lower === 'authorization' && key !== undefined) continue
    const sent = lower === 'prefer' ? withoutCodePreference(value) : value
    if (sent !== '' || lower !== 'prefer') headers.append(name, sent)
  }
  if (key !== undefined) headers.set('Authorization', `Bearer ${key}`)
  // msw's own bypass mark (its bypass() adds it): where msw intercepts fetch (setupServer), it lets this request
  // out instead of handing it to the simulator's handlers again. `*/*` first, as fetch would send without one.
  headers.set('Accept', `${headers.get('Accept') ?? '*/*'}, msw/passthrough`)
  return headers
}

/** The target's base and the request's path and query as one URL, or an `ApiError` when dot segments would leave the base. */
function forwardUrl(base: string, request: ForwardRequest): URL {
  const baseUrl = new URL(base)
  const basePath = baseUrl.pathname.replace(/\/+$/, '')
  if (!/^(?:$|[/?])/.test(request.target)) throw new TypeError(`forward() takes a target under the base, such as "/store/inventory".`)
  const url = new URL(`${baseUrl.origin}${basePath}${request.target}`)
  if (url.origin !== baseUrl.origin || (url.pathname !== basePath && !url.pathname.startsWith(`${basePath}/`)))
    throw invalidRequest('This request is not forwarded: its "." or ".." segments lead out of the API base.')
  return url
}

/** The Error answer of a failed forward. */
function failed(code: ProxyFailure, status: number, message: string, extra: Record<string, string> = {}): ForwardedAnswer {
  const reply = errorReply(new ApiError(status, code, message))
  return {
    status,
    headers: { 'content-type': 'application/json', ...extra },
    setCookie: [],
    body: new TextEncoder().encode(reply.body),
    failure: code,
  }
}

/** Why a body was not read whole: over the answer's own bound, or over what all answers in flight may hold. */
type Unread = 'too-large' | 'busy'

/**
 * Reads the answer body up to `max` bytes, taking each chunk from `budget` (what it took is added to
 * `taken`, for the caller to give back); why not, once it passes either (the read is cancelled at once).
 */
async function readBounded(
  response: Response,
  max: number,
  abort: () => void,
  budget: AnswerBudget | undefined,
  taken: { bytes: number },
): Promise<Uint8Array | Unread> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN)
  if (declared > max && response.headers.get('content-encoding') === null) {
    abort()
    return 'too-large'
  }
  const reader = response.body?.getReader()
  if (reader === undefined) return new Uint8Array()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    const unread = size > max ? 'too-large' : budget !== undefined && !budget.take(value.length) ? 'busy' : null
    if (unread !== null) {
      abort()
      await reader.cancel().catch(() => {})
      return unread
    }
    taken.bytes += budget === undefined ? 0 : value.length
    chunks.push(value)
  }
  const body = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    body.set(chunk, offset)
    offset += chunk.length
  }
  return body
}

/**
 * Forwards one request to the same path and query under `options.target`
 * and resolves with what to pass back. Redirects are passed back, not
 * followed. Never rejects for the target's sake: a timeout is 504
 * `proxy_timeout`, an unreachable target 502 `proxy_unreachable`, an answer
 * over the bound 502 `proxy_answer_too_large`, one that is not HTTP, is cut
 * off or could not be sent on 502 `proxy_bad_answer`, one that would pass
 * the budget of answers being read 503 `service_unavailable`. Throws an `ApiError`
 * (400) for a request that cannot be forwarded, and the client's abort reason.
 */
export async function forward(request: ForwardRequest, options: ProxyOptions): Promise<ForwardedAnswer> {
  request.signal?.throwIfAborted()
  const method = request.method.toUpperCase()
  if (UNSENDABLE_METHODS.has(method)) throw invalidRequest(`${method} requests are not forwarded.`)
  const url = forwardUrl(options.target.replace(/\/+$/, ''), request)
  const shown = `${url.origin}${new URL(options.target).pathname.replace(/\/+$/, '')}`
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROXY_TIMEOUT_MS
  const max = options.maxAnswerBytes ?? MAX_PROXY_ANSWER_BYTES
  const controller = new AbortController()
  let timedOut = false
  // Set once the status and headers came: a failure after is the answer's, never the connection's.
  let answered = false
  const time = options.time ?? systemTime
  const timer = time.setTimeout(() => {
    timedOut = true
    controller.abort()
  }, timeoutMs)
  const onClientAbort = () => controller.abort()
  request.signal?.addEventListener('abort', onClientAbort, { once: true })
  const taken = { bytes: 0 }
  try {
    // A copy: Fetch takes an ArrayBuffer-backed view, and the caller's bytes stay the caller's.
    const body =
      method === 'GET' || method === 'HEAD' || request.body === null || request.body.length === 0 ? null : new Uint8Array(request.body)
    const response = await fetch(url, {
      method,
      headers: outgoingHeaders(request.headers, options.key),
      redirect: 'manual',
      signal: controller.signal,
      ...(body === null ? {} : { body }),
    })
    answered = true
    const refused = unsendable(response.status, response.headers, options.key)
    if (refused !== null) {
      controller.abort()
      return failed(ErrorCode.ProxyBadAnswer, 502, `The proxy target ${shown} answered ${refused}; it is not passed back.`)
    }
    const answer = await readBounded(response, max, () => controller.abort(), options.budget, taken)
    if (answer === 'busy')
      return failed(
        ErrorCode.ServiceUnavailable,
        503,
        'Forwarded answers being read hold all the memory they may; try again in a moment.',
        { 'retry-after': '1' },
      )
    if (answer === 'too-large')
      return failed(
        ErrorCode.ProxyAnswerTooLarge,
        502,
        `The proxy target ${shown} answered with a body over ${max} bytes; it is not passed back.`,
      )
    return {
      status: response.status,
      headers: passedBackHeaders(response.headers),
      setCookie: response.headers.getSetCookie(),
      body: answer,
    }
  } catch (error) {
    if (request.signal?.aborted === true) throw request.signal.reason
    if (timedOut) return failed(ErrorCode.ProxyTimeout, 504, `The proxy target ${shown} sent no whole answer within ${timeoutMs / 1000} s.`)
    const cause = error instanceof Error ? error.cause : undefined
    const code = systemErrorCode(cause) ?? systemErrorCode(error)
    const shownCode = code === undefined ? '' : ` (${code})`
    if (isBadAnswer(cause, answered))
      return failed(
        ErrorCode.ProxyBadAnswer,
        502,
        `The proxy target ${shown} sent an answer that is not valid HTTP or was cut off${shownCode}.`,
      )
    return failed(
      ErrorCode.ProxyUnreachable,
      502,
      `The proxy target ${shown} could not be reached or closed the connection without answering${shownCode}.`,
    )
  } finally {
    options.budget?.give(taken.bytes)
    time.clearTimeout(timer)
    request.signal?.removeEventListener('abort', onClientAbort)
  }
}
