// What HTTP (RFC 9110) and Node's writer say of headers, said once: routes are checked by these rules,
// a target's answer is checked by them, and recording keeps only what passes them.

/** RFC 9110 section 7.6.1: headers of one connection, never passed on by a proxy (`proxy-*` are matched by prefix). */
export const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade'])

/** An RFC 9110 token: what a header name may be. */
export const HEADER_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/**
 * What Node's `writeHead` sends as a header value (its checkInvalidHeaderChar): tab, printable ASCII and
 * U+0080 to U+00FF, written as latin1. Anything else throws ERR_INVALID_CHAR.
 */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/

/**
 * A test of whether a header (any case) belongs to one connection: the fixed
 * hop-by-hop ones, any `proxy-*`, and those the message's own `Connection`
 * header names (`connection` is its value, null when absent).
 */
export function hopByHop(connection: string | null): (name: string) => boolean {
  const listed = new Set(
    (connection ?? '')
      .split(',')
      .map((name) => name.trim().toLowerCase())
      .filter((name) => name !== ''),
  )
  return (name) => {
    const lower = name.toLowerCase()
    return HOP_BY_HOP.has(lower) || lower.startsWith('proxy-') || listed.has(lower)
  }
}
