// What a path under the API base is, said once: operations, routes and forwarding all read a request's
// path through `readApiPath`, and routes spell their literals as it does (`decodedSegment`), so no
// spelling can be one path to the simulator and another to a server behind it (docs/proxy.md, "What a path is").

/** A request's path under the base, as every rule reads it. */
export interface ApiPath {
  /** Each segment percent-decoded (a malformed escape stays as sent); none for the base itself. */
  segments: string[]
  /** The path sent ended in "/" (one is tolerated, as the service's operations tolerate it). */
  trailingSlash: boolean
  /**
   * Why a server behind the simulator could read this path as another one, or undefined. Such a path
   * is never routed or forwarded (400 `invalid_path`); an operation still reads its (decoded) parameter by its own rule.
   */
  problem: string | undefined
}

/** Characters no path the simulator passes on may hold as sent: a backslash, `;` parameters (and control characters). */
const RAW_HAZARD = /[\\;]/
/** Escapes of "/", "\" and ".": decoded, they make new segments or dot segments. */
const ESCAPED_HAZARD = /%(?:2f|5c|2e)/i

/** A control character (C0 or DEL): what no path should hold, sent or decoded. */
function hasControl(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}

/** A segment percent-decoded; null for a malformed escape ("%zz": no valid id either, and no path a server would read the same way). */
function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

/** The problem of one raw segment, if any; `decoded` is what its escapes read as (null: malformed). */
function segmentProblem(raw: string, decoded: string | null): string | undefined {
  if (raw === '') return 'it has an empty segment ("//")'
  if (raw === '.' || raw === '..') return 'it has a "." or ".." segment'
  // The rest hides behind an escape only: the raw path's own characters were checked whole.
  if (!raw.includes('%')) return undefined
  if (ESCAPED_HAZARD.test(raw)) return 'it has an encoded "/", "\\" or "." (%2f, %5c, %2e)'
  if (decoded === null) return 'it has a malformed percent-escape'
  if (hasControl(decoded)) return 'it has an encoded control character'
  return undefined
}

/**
 * Reads a path (no query) under `basePath` ("/v1", or "" for the root). The base compares as the
 * operations do, with case (RFC 3986): null when the path is not under it.
 */
export function readApiPath(pathname: string, basePath: string): ApiPath | null {
  if (!pathname.startsWith(basePath)) return null
  const rest = pathname.slice(basePath.length)
  if (rest !== '' && !rest.startsWith('/')) return null
  const trailingSlash = rest.endsWith('/')
  const bare = rest.slice(1, trailingSlash ? -1 : undefined)
  let problem = RAW_HAZARD.test(rest) || hasControl(rest) ? 'it has a backslash, a ";" or a control character' : undefined
  const segments: string[] = []
  if (bare !== '') {
    for (const raw of bare.split('/')) {
      // A segment without an escape reads as sent.
      const decoded = raw.includes('%') ? decodeSegment(raw) : raw
      problem ??= segmentProblem(raw, decoded)
      segments.push(decoded ?? raw)
    }
  }
  return { segments, trailingSlash, problem }
}

/** A decoded segment as a path segment again: what must be escaped is (RFC 3986 pchar), the rest is sent as it reads. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%(?:24|26|2B|2C|3D|3A|40)/g, decodeURIComponent)
}

/** A route's literal segment as a request's segment reads (decoded), so that `/a|b` and `/a%7Cb` are one path. */
export function decodedSegment(raw: string): string {
  return (raw.includes('%') ? decodeSegment(raw) : raw) ?? raw
}

/** The path as it is matched on, under the base: "" for the base itself, else "/a/b" (with the trailing "/" sent). */
export function pathText(path: ApiPath): string {
  if (path.segments.length === 0) return path.trailingSlash ? '/' : ''
  return `/${path.segments.map(encodeSegment).join('/')}${path.trailingSlash ? '/' : ''}`
}
