import { ValidationError } from '../validation-error.js'
import { type ApiPath, readApiPath } from './api-path.js'
import { OPERATIONS } from './registry.js'

/**
 * Where the simulated API lives: either any origin with a path prefix
 * (`origin === null`), or one pinned origin and prefix.
 */
export interface ApiBase {
  origin: string | null
  /** The path prefix without a trailing slash: "/v1", or "" for the root. */
  path: string
}

export type Operation = (typeof OPERATIONS)[number]

/** What routing reads of a request's URL: a `URL`, or the same two fields read off a plain path without parsing one. */
export type RouteUrl = Pick<URL, 'origin' | 'pathname'>

export interface RouteMatch {
  operation: Operation
  /** The decoded path parameter (orderId or petId), or "" when the path has none. */
  param: string
}

/** Each operation's path as segments, null where the path parameter goes. */
const TEMPLATES = OPERATIONS.map((operation) => ({
  operation,
  segments: operation.path
    .slice(1)
    .split('/')
    .map((segment) => (segment.startsWith('{') ? null : segment)),
}))

/**
 * Reads the `baseUrl` option: an absolute http(s) URL pins origin and path
 * ("https://api.petstore.example/v1"); a path ("/v1", the default) matches
 * that path on any origin, so production and staging are both intercepted.
 */
export function parseApiBase(baseUrl: string): ApiBase {
  const trimmed = baseUrl.replace(/\/+$/, '')
  if (baseUrl.startsWith('/')) {
    return { origin: null, path: trimmed }
  }
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new ValidationError(
      'baseUrl',
      `Failed to read baseUrl "${baseUrl}": it must be an absolute http(s) URL ` +
        `such as "https://api.petstore.example/v1" or a path such as "/v1".`,
    )
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new ValidationError('baseUrl', `Failed to read baseUrl "${baseUrl}": it must be an http(s) URL with no query or fragment.`)
  }
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') }
}

/** The path a server serves the API under: `/v1` unless given; it must start with "/". */
export function checkBasePath(basePath = '/v1'): string {
  if (!basePath.startsWith('/')) {
    throw new ValidationError('basePath', `basePath must start with "/", got "${basePath}".`)
  }
  return basePath
}

/**
 * True when a URL lies under the API's base: same origin when pinned, and the
 * base path or below it. The prefix is compared ignoring case so that a
 * mistyped `/V1/...` is answered 404 like any other unknown path, rather than
 * left to fall through; operations themselves match case-sensitively.
 */
export function isUnderBase(url: RouteUrl, base: ApiBase): boolean {
  if (base.origin !== null && url.origin !== base.origin) return false
  const path = url.pathname.toLowerCase()
  const prefix = base.path.toLowerCase()
  return path === prefix || path.startsWith(`${prefix}/`)
}

/** The operation whose template these (decoded) segments fill, comparing literals with `same`. */
function operationAt(segments: readonly string[], same: (literal: string, segment: string) => boolean): RouteMatch | null {
  for (const { operation, segments: template } of TEMPLATES) {
    if (segments.length !== template.length) continue
    let param = ''
    let matches = true
    for (let index = 0; index < template.length && matches; index++) {
      const literal = template[index] as string | null
      const segment = segments[index] as string
      if (literal === null) {
        matches = segment !== ''
        param = segment
      } else {
        matches = same(literal, segment)
      }
    }
    if (matches) return { operation, param }
  }
  return null
}

/** The path of a URL under the base (api-path.ts), or null when it is not under it (origin included). */
export function apiPathOf(url: RouteUrl, base: ApiBase): ApiPath | null {
  if (base.origin !== null && url.origin !== base.origin) return null
  return readApiPath(url.pathname, base.path)
}

/**
 * Finds the operation whose path a URL has, whatever the method. Paths are
 * read by `readApiPath` (decoded, compared case-sensitively, one trailing
 * slash tolerated), the one rule routes and forwarding read them by too.
 */
export function matchRoute(url: RouteUrl, base: ApiBase): RouteMatch | null {
  const path = apiPathOf(url, base)
  return path === null ? null : operationAt(path.segments, (literal, segment) => literal === segment)
}

/**
 * Whether a URL under the base in any case (`isUnderBase`) is, to a server that ignores case, the
 * base or an operation's path spelled in another case (the path itself, with another method, is not): such a request is answered 404 here and never
 * routed or forwarded, so no spelling of the spec's operations reaches a server behind the simulator.
 */
export function shadowsOperation(url: RouteUrl, base: ApiBase): boolean {
  const prefix = url.pathname.slice(0, base.path.length)
  if (prefix !== base.path) return true
  const path = apiPathOf(url, base)
  if (path === null || operationAt(path.segments, (literal, segment) => literal === segment) !== null) return false
  return operationAt(path.segments, (literal, segment) => literal === segment.toLowerCase()) !== null
}

/**
 * `matchRoute` for one base, remembering the last URL it matched by origin and
 * path: a client repeats its paths, and a match is read-only. One entry: what
 * it holds is one path, which the transports bound.
 */
export function rememberedRoute(base: ApiBase): (url: RouteUrl) => RouteMatch | null {
  let lastOrigin: string | undefined
  let lastPath: string | undefined
  let lastMatch: RouteMatch | null = null
  return (url) => {
    if (url.pathname === lastPath && url.origin === lastOrigin) return lastMatch
    lastMatch = matchRoute(url, base)
    lastOrigin = url.origin
    lastPath = url.pathname
    return lastMatch
  }
}
