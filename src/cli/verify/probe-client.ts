import { systemErrorCode } from '../../core/system-error-code.js'

/** One request of a check, relative to a base URL: the same for the service and the simulator. */
export interface ProbeRequest {
  method: 'GET' | 'HEAD' | 'OPTIONS' | 'DELETE'
  /** Appended to the base URL as it is, so odd paths (`//`, `%zz`) reach the server unchanged. */
  path: string
  headers?: Record<string, string>
}

/** What came back: an answer, or why there was none. */
export type Observed =
  | { kind: 'answer'; status: number; headers: Headers; body: Uint8Array; truncated: boolean }
  | {
      kind: 'failure'
      /** One line: "timed out after 10 s", "connection reset (ECONNRESET)". */
      reason: string
      /** The connection was never made (refused, no such host, TLS): the target cannot be reached at all. */
      unreachable: boolean
    }

export interface ProbeClientOptions {
  /** The base URL, its path ending without "/". */
  base: string
  /** Requests per second at most; Infinity for none. */
  rate: number
  timeoutMs: number
  userAgent: string
}

/** The most of a body read: the whole list is one response, but a check never needs more. */
const MAX_BODY_BYTES = 32 * 1024 * 1024
const MAX_REDIRECTS = 5
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

async function readCapped(response: Response): Promise<{ body: Uint8Array; truncated: boolean }> {
  const chunks: Uint8Array[] = []
  let size = 0
  const reader = response.body?.getReader()
  if (reader === undefined) return { body: new Uint8Array(), truncated: false }
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.length
    if (size > MAX_BODY_BYTES) {
      await reader.cancel()
      return { body: Buffer.concat(chunks).subarray(0, MAX_BODY_BYTES), truncated: true }
    }
  }
  return { body: Buffer.concat(chunks), truncated: false }
}

/** Why a fetch failed, in one line, and whether it never connected. */
function describeFailure(error: unknown, timeoutMs: number): Observed {
  if (error instanceof Error && error.name === 'TimeoutError')
    return { kind: 'failure', reason: `no answer within ${timeoutMs / 1000} s (timed out)`, unreachable: false }
  const cause = error instanceof Error ? error.cause : undefined
  const code = systemErrorCode(cause) ?? systemErrorCode(error)
  const message = cause instanceof Error ? cause.message : error instanceof Error ? error.message : String(error)
  const reason =
    code === 'ECONNRESET' || code === 'UND_ERR_SOCKET'
      ? `the connection was reset or closed without an answer (${code})`
      : `${message.split('\n')[0] ?? 'failed'}${code === undefined || message.includes(code) ? '' : ` (${code})`}`
  // fetch refuses some ports outright ("bad port"): no request will ever reach them.
  return { kind: 'failure', reason, unreachable: (code !== undefined && UNREACHABLE.has(code)) || /bad port/i.test(message) }
}

/**
 * Sends probe requests to one server: spaced to at most `rate` a second,
 * each within `timeoutMs` (headers and body), following a redirect only to
 * the same origin, so the key is never sent anywhere else.
 */
export function createProbeClient(options: ProbeClientOptions): (request: ProbeRequest) => Promise<Observed> {
  const spacingMs = Number.isFinite(options.rate) ? 1000 / options.rate : 0
  let nextStart = 0
  const waitForTurn = async () => {
    const now = Date.now()
    const start = Math.max(now, nextStart)
    nextStart = start + spacingMs
    if (start > now) await new Promise((resolve) => setTimeout(resolve, start - now))
  }
  const origin = new URL(options.base).origin
  return async (request) => {
    let url = `${options.base}${request.path}`
    let method: string = request.method
    for (let hop = 0; ; hop++) {
      await waitForTurn()
      try {
        const signal = AbortSignal.timeout(options.timeoutMs)
        const headers = { 'User-Agent': options.userAgent, ...request.headers }
        const response = await fetch(url, { method, headers, redirect: 'manual', signal })
        const location = response.headers.get('Location')
        const next = location === null ? null : new URL(location, url)
        if (response.status >= 300 && response.status < 400 && next?.origin === origin && hop < MAX_REDIRECTS) {
          await response.body?.cancel()
          // As browsers do: 301/302/303 turn every method but HEAD into GET; 307/308 keep it.
          if (response.status <= 303 && method !== 'HEAD') method = 'GET'
          url = next.href
          continue
        }
        return { kind: 'answer', status: response.status, headers: response.headers, ...(await readCapped(response)) }
      } catch (error) {
        return describeFailure(error, options.timeoutMs)
      }
    }
  }
}
