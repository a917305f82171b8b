import { ApiError } from '../../core/api-error.js'
import { ErrorCode } from '../../core/error-codes.js'
import { quote } from '../../core/quote-value.js'

/**
 * A Host header's host, canonical (lower case, IPv4 and IPv6 normalised as
 * URLs normalise them), or null when it is not a host: anything with a path,
 * query, fragment, user info or white space is refused rather than parsed.
 */
export function hostOf(header: string): string | null {
  if (header === '' || header.length > 255 || /[\s/?#@\\]/.test(header)) return null
  try {
    const { hostname } = new URL(`http://${header}/`)
    return hostname === '' ? null : hostname.replace(/\.$/, '')
  } catch {
    return null
  }
}

/**
 * An IPv4 or IPv6 address, as `hostOf` gives it. DNS rebinding needs a name
 * the attacker's DNS answers, so an address in the Host header is no threat
 * (Vite admits them too): a client that reaches the server at the bridge's
 * gateway (Testcontainers, 10.88.0.1 under podman) or by a pod IP is answered.
 */
function isIpLiteral(host: string): boolean {
  // hostOf normalises every IPv4 spelling (0x7f.1, 2130706433) to dotted quads; a name never ends in a number.
  return host.startsWith('[') || /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

/** `localhost`, `*.localhost`, 127.0.0.0/8, `[::1]` and IPv4-mapped 127.0.0.0/8 (`[::ffff:7f00:1]`), as `hostOf` gives them. */
export function isLoopbackHost(host: string): boolean {
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) ||
    host === '[::1]' ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
  )
}

export interface HostCheckOptions {
  /**
   * Hosts answered besides the loopback ones: names or addresses, a leading
   * dot for a domain and its subdomains (`.example.test`), or `'all'` to turn
   * the check off.
   */
  allowedHosts?: readonly string[] | 'all' | undefined
  /** The addresses the server is reached by as itself (the one it is bound to). */
  ownAddresses?: readonly string[] | undefined
}

/**
 * Checks the Host header of every request: a DNS-rebinding page reaches a
 * server on the loopback under its own domain name, which this refuses.
 * Any IP address passes; a name passes when it is a loopback one or allowed.
 * Returns null for an allowed Host, else the 400 or 403 to answer.
 */
export function createHostCheck(options: HostCheckOptions = {}): (header: string | undefined) => ApiError | null {
  if (options.allowedHosts === 'all') return () => null
  const exact = new Set<string>()
  const suffixes: string[] = []
  for (const entry of [...(options.allowedHosts ?? []), ...(options.ownAddresses ?? [])]) {
    const wildcard = entry.startsWith('.')
    const host = hostOf(wildcard ? entry.slice(1) : entry)
    if (host === null) continue
    exact.add(host)
    if (wildcard) suffixes.push(`.${host}`)
  }
  // Most servers see one Host header over and over: remember the last one allowed.
  let lastAllowed: string | undefined
  return (header) => {
    if (header !== undefined && header === lastAllowed) return null
    if (header === undefined || header === '') {
      return new ApiError(400, ErrorCode.InvalidRequest, 'The request has no Host header; HTTP/1.1 requires one.')
    }
    const host = hostOf(header)
    if (host === null) {
      return new ApiError(400, ErrorCode.InvalidRequest, `The Host header ${quote(header)} is not a host name or address.`)
    }
    if (isIpLiteral(host) || isLoopbackHost(host) || exact.has(host) || suffixes.some((suffix) => host.endsWith(suffix))) {
      lastAllowed = header
      return null
    }
    const name = host.startsWith('[') ? host : host.split(':')[0]
    return new ApiError(
      403,
      ErrorCode.ForbiddenHost,
      `Host ${quote(name)} is not allowed: the simulator answers IP addresses and loopback names ` +
        `(a guard against DNS rebinding, which needs a name). ` +
        `To allow it, start it with --allowed-hosts ${name} (or PETSTORE_SIM_ALLOWED_HOSTS, or the allowedHosts option).`,
    )
  }
}
