import { ValidationError } from '../validation-error.js'
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

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    // A malformed escape such as "%zz" stays as sent; it is no valid id either.
    return segment
  }
}

/**
 * Finds the operation whose path a URL has, whatever the method. Paths are
 * compared case-sensitively (RFC 3986) and one trailing slash is tolerated.
 */
export function matchRoute(url: RouteUrl, base: ApiBase): RouteMatch | null {
  if (base.origin !== null && url.origin !== base.origin) {
    return null
  }
  const { pathname } = url
  if (!pathname.startsWith(base.path) || pathname[base.path.length] !== '/') {
    return null
  }
  const rest = pathname.slice(base.path.length + 1)
  const segments = (rest.endsWith('/') ? rest.slice(0, -1) : rest).split('/')
  for (const { operation, segments: template } of TEMPLATES) {
    if (segments.length !== template.length) continue
    let param = ''
    let matches = true
    for (let index = 0; index < template.length && matches; index++) {
      const literal = template[index]
      const segment = segments[index] as string
      if (literal === null) {
        matches = segment !== ''
        param = decodeSegment(segment)
      } else {
        matches = segment === literal
      }
    }
    if (matches) return { operation, param }
  }
  return null
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
