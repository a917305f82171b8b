/**
 * Where the simulated API lives: either any origin with a path prefix
 * (`origin === null`), or one pinned origin and prefix.
 */
export interface ApiBase {
  origin: string | null
  /** The path prefix without a trailing slash: "/v1", or "" for the root. */
  path: string
}

/** The operations of the specification, by operation id. */
export type OperationId = 'listOrders' | 'cancelOrder' | 'getPetById'

export interface RouteMatch {
  operation: OperationId
  /** The decoded path parameter (orderId or petId), when the route has one. */
  param?: string
}

/** The method each operation answers to. */
export const OPERATION_METHODS: Readonly<Record<OperationId, string>> = {
  listOrders: 'GET',
  cancelOrder: 'DELETE',
  getPetById: 'GET',
}

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
    throw new TypeError(`Failed to read baseUrl "${baseUrl}": it must be an absolute http(s) URL such as "https://api.petstore.example/v1" or a path such as "/v1".`)
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '') {
    throw new TypeError(`Failed to read baseUrl "${baseUrl}": it must be an http(s) URL with no query or fragment.`)
  }
  return { origin: url.origin, path: url.pathname.replace(/\/+$/, '') }
}

/** The path a server serves the API under: `/v1` unless given; it must start with "/". */
export function checkBasePath(basePath = '/v1'): string {
  if (!basePath.startsWith('/')) {
    throw new TypeError(`Failed to create the simulator: basePath must start with "/", got "${basePath}".`)
  }
  return basePath
}

/**
 * True when a URL lies under the API's base: same origin when pinned, and the
 * base path or below it. The prefix is compared ignoring case so that a
 * mistyped `/V1/...` is answered 404 like any other unknown path, rather than
 * left to fall through; operations themselves match case-sensitively.
 */
export function isUnderBase(url: URL, base: ApiBase): boolean {
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
export function matchRoute(url: URL, base: ApiBase): RouteMatch | null {
  if (base.origin !== null && url.origin !== base.origin) {
    return null
  }
  const { pathname } = url
  if (!pathname.startsWith(`${base.path}/`)) {
    return null
  }
  const rest = pathname.slice(base.path.length + 1)
  const segments = (rest.endsWith('/') ? rest.slice(0, -1) : rest).split('/')
  if (segments.length === 2 && segments[0] === 'store' && segments[1] === 'orders') {
    return { operation: 'listOrders' }
  }
  if (segments.length === 3 && segments[0] === 'store' && segments[1] === 'orders' && segments[2] !== '') {
    return { operation: 'cancelOrder', param: decodeSegment(segments[2] ?? '') }
  }
  if (segments.length === 2 && segments[0] === 'pets' && segments[1] !== '') {
    return { operation: 'getPetById', param: decodeSegment(segments[1] ?? '') }
  }
  return null
}
