/** RFC 9110 section 7.6.1: headers of one connection, never passed on by a proxy (`proxy-*` are matched by prefix). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade'])

/** An RFC 9110 token: what a header name may be. */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

/** A header value Node's `validateHeaderValue` sends: tab, visible ASCII and space, and bytes 0x80-0xff (obs-text). */
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
