import { ApiError } from '../../../core/api-error.js'
import { ErrorCode } from '../../../core/error-codes.js'
import { hostOf, isLoopbackHost } from '../../node/host-check.js'
import { quote } from '../../../core/quote-value.js'

export interface AdminCaller {
  /** The Origin header, when the request came from a web page. */
  origin: string | undefined
  /** The Sec-Fetch-Site header: browsers send `cross-site` from another site. */
  secFetchSite: string | undefined
  /** The Host header, already checked: an Origin naming it is the server's own page. */
  host: string | undefined
}

/** An origin as `new URL(origin).origin` writes it, or null for `null` and anything else that is none. */
function originOf(value: string): string | null {
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin !== 'null' ? url.origin : null
  } catch {
    return null
  }
}

/**
 * Who may call the admin API: the operator (a client that is no web page, a
 * page on a loopback origin at any port, the server's own pages) and the
 * origins in `extraOrigins`. Returns null for them, else the 403 to answer
 * before any state is read or changed: a page on another site must not be
 * able to reset the simulator or read its keys, whatever its method or body.
 */
export function createAdminOriginCheck(extraOrigins: readonly string[] = []): (caller: AdminCaller) => ApiError | null {
  const extra = new Set(extraOrigins.map((origin) => originOf(origin)).filter((origin) => origin !== null))
  return ({ origin, secFetchSite, host }) => {
    if (origin === undefined) {
      if (secFetchSite?.toLowerCase() !== 'cross-site') return null
    } else {
      const parsed = originOf(origin)
      if (parsed !== null) {
        const { host: originHost, hostname } = new URL(parsed)
        if (isLoopbackHost(hostOf(hostname) ?? '') || extra.has(parsed) || (host !== undefined && originHost === host.toLowerCase()))
          return null
      }
    }
    return new ApiError(
      403,
      ErrorCode.ForbiddenOrigin,
      `The admin API answers its operator only, not a web page of another origin (${quote(origin ?? 'a cross-site page')}). ` +
        `To allow a dashboard on another host, start the simulator with --admin-origins <origin>.`,
    )
  }
}
