/**
 * What the operations read of a request, whatever carried it: a Fetch
 * `Request` in msw's handlers, Node's `IncomingMessage` in the standalone
 * server. Building neither from the other is what keeps the server fast.
 */
export interface SimRequest {
  readonly method: string
  /** The URL path and query as sent, for the journal. */
  readonly target: string
  /** A header's value, repeated ones joined with ", " as Fetch joins them; null when absent. */
  header(name: string): string | null
  /** Aborts when the client gives up; a latency or a hang ends then. */
  readonly signal: AbortSignal | undefined
  /** True when the body is larger than `limit` bytes (a transport limit, checked before anything else). */
  bodyExceeds(limit: number): boolean | Promise<boolean>
  /** Every header as sent, for forwarding (docs/proxy.md); a repeated one as several pairs or joined. */
  headerPairs(): Iterable<readonly [string, string]>
  /** The body, read once `bodyExceeds` said it is within the limit; null when there is none. */
  body(): Promise<Uint8Array | null>
}

/** An answer, ready for a transport to send. */
export interface Reply {
  status: number
  headers: Readonly<Record<string, string>>
  body: Uint8Array | string | null
  /** A network failure, and what caused it: reset the connection (over HTTP) or fail the fetch (in process) instead of answering. */
  networkError?: string
  /** Each Set-Cookie line of a forwarded answer, which cannot be joined into one header (docs/proxy.md). */
  setCookie?: readonly string[]
  /** Send the body in `PACE_PIECES` pieces spread over this many ms (a `slow-body` fault). */
  paceMs?: number
}

/** How many pieces a paced body is sent in, one every `paceMs / PACE_PIECES`. */
export const PACE_PIECES = 10

/** The pieces of a paced body, in order. */
export function pacedPieces(body: Uint8Array): Uint8Array[] {
  const size = Math.max(1, Math.ceil(body.length / PACE_PIECES))
  const pieces: Uint8Array[] = []
  for (let start = 0; start < body.length; start += size) pieces.push(body.subarray(start, start + size))
  return pieces
}

/** A reply's body as bytes. */
export function bodyBytes(body: Uint8Array | string): Uint8Array {
  return typeof body === 'string' ? new TextEncoder().encode(body) : body
}
