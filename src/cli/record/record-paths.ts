import { readApiPath } from '../../core/operations/api-path.js'
import { recordedRoute } from '../../core/proxy/record.js'
import { shownRoute } from '../../core/routes/route-book.js'
import { type Route, routeIdentity } from '../../core/routes/route-path.js'
import { OPERATION_TABLE } from '../../core/routes/route-table.js'
import type { Observed, ProbeRequest } from '../verify/probe-client.js'

// `record --path`: paths the spec does not show, read beside the list and kept as routes by the one rule
// `--record` keeps a forwarded answer by (core/proxy/record.ts): no 5xx, no binary body, never the key.

/** Sends one request to the deployment (spaced and bounded, as verify probes). */
export type Send = (request: ProbeRequest) => Promise<Observed>

/** The Authorization header of `key`; none without one. */
export const authorization = (key: string | undefined): Record<string, string> =>
  key === undefined ? {} : { Authorization: `Bearer ${key}` }

/** The most `--path`s one recording reads: at the default rate, 20 s. */
export const MAX_RECORD_PATHS = 100
/** The longest `--path`, query included: longer ones are no path a client calls. */
const MAX_RECORD_PATH_LENGTH = 2048

const codePoint = (char: string) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`

/**
 * Why `path` cannot be recorded under a target whose URL path is `basePath` ("/v1", or "" at the root),
 * or undefined when it can: it must be under the target, in printable ASCII, without dot or empty
 * segments, and not a spec operation's (record reads the list and the pets itself).
 */
export function recordPathProblem(path: string, basePath: string): string | undefined {
  if (path.length > MAX_RECORD_PATH_LENGTH) return `is ${path.length} characters long; at most ${MAX_RECORD_PATH_LENGTH}`
  const unprintable = /[^\x21-\x7e]/.exec(path)?.[0]
  if (unprintable !== undefined) return `holds ${codePoint(unprintable)}: write it in printable ASCII (percent-encode the rest)`
  if (!path.startsWith('/')) return 'must start with "/": a path under the target, such as /store/inventory'
  if (path.includes('#')) return 'holds a "#": a fragment is never sent to a server'
  const bare = path.split('?')[0] ?? ''
  if (/%(?:[01][0-9a-f]|7f)/i.test(path)) return 'holds a percent-encoded control character'
  const segments = bare.slice(1).split('/')
  if (segments.some((segment) => /^(?:\.|%2e){1,2}$/i.test(segment)))
    return 'holds a "." or ".." segment, which a server reads as another path'
  if (bare !== '/' && segments.some((segment, index) => segment === '' && index < segments.length - 1))
    return 'holds an empty segment ("//")'
  // The one path rule the server reads a request by (api-path.ts): what it refuses is never sent.
  const problem = readApiPath(bare, '')?.problem
  if (problem !== undefined) return `is refused: ${problem}, which a server could read as another path`
  const base = basePath.replace(/\/+$/, '')
  if (base !== '' && (bare === base || bare.startsWith(`${base}/`)))
    return `starts with the target's own path ${base}: give the path under it, such as ${bare.slice(base.length) || '/'}`
  const found = OPERATION_TABLE.match('GET', bare)
  if ('operation' in found)
    return `is the spec's operation ${found.operation.id}, which the simulator answers itself (record reads the list, and --pets the pet records)`
  return undefined
}

/** The routes read from `paths`, each kept as `--record` would keep it, and a clause for the description. */
export async function readPaths(
  send: Send,
  key: string | undefined,
  paths: readonly string[],
  onSkipped: (line: string) => void,
): Promise<{ routes: Route[]; summary: string }> {
  const routes: Route[] = []
  const kept = new Set<string>()
  const unique = [...new Set(paths)]
  for (const path of unique) {
    const observed = await send({ method: 'GET', path, headers: authorization(key) })
    // record.ts words its reasons for --proxy; here the key is --key's.
    const skip = (why: string) => onSkipped(`GET ${path} not recorded: ${why.replace('the proxy key', 'the key')}.`)
    if (observed.kind === 'failure') {
      skip(`no answer (${observed.reason})`)
      continue
    }
    if (observed.truncated) {
      skip('the body is over 32 MiB')
      continue
    }
    const headers = Object.fromEntries(observed.headers)
    const decision = recordedRoute({ method: 'GET', target: path, answer: { status: observed.status, headers, body: observed.body } }, key)
    if ('skipped' in decision) {
      skip(decision.skipped)
      continue
    }
    const route = shownRoute(decision.route)
    // One route per method, path and query: two spellings of one path are one route.
    const identity = routeIdentity(route)
    if (kept.has(identity)) continue
    kept.add(identity)
    routes.push(route)
  }
  const skipped = unique.length - routes.length
  return { routes, summary: `${routes.length} of ${unique.length} paths as routes${skipped > 0 ? ` (${skipped} not recorded)` : ''}` }
}
