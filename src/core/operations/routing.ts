import { ValidationError } from '../validation-error.js'
import { type ApiPath, readApiPath } from './api-path.js'
import type { OPERATIONS } from './registry.js'

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

/** The path of a URL under the base (api-path.ts), or null when it is not under it (origin included). */
export function apiPathOf(url: RouteUrl, base: ApiBase): ApiPath | null {
  if (base.origin !== null && url.origin !== base.origin) return null
  return readApiPath(url.pathname, base.path)
}
