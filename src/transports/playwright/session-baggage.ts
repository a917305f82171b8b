import { BAGGAGE_KEY } from '../../core/simulator/session-source.js'

/** The key of a W3C Baggage list member: the text before its `=` (or its first property), without the spaces around it. */
function keyOf(member: string): string {
  const equals = member.indexOf('=')
  const semicolon = member.indexOf(';')
  const end = Math.min(equals === -1 ? member.length : equals, semicolon === -1 ? member.length : semicolon)
  return member.slice(0, end).trim()
}

/**
 * The `baggage` header a fixture request carries: `sim-session=<id>`
 * (percent-encoded), then the members the page sent itself (a browser
 * OpenTelemetry SDK's, say) as they were, minus any `sim-session` of its own
 * and empty ones. The session comes first, so that a receiver that stops
 * reading at the W3C limits (8192 bytes, 180 members) never drops it.
 */
export function withSessionBaggage(existing: string | undefined, session: string): string {
  const own = `${BAGGAGE_KEY}=${encodeURIComponent(session)}`
  if (existing === undefined || existing.trim() === '') return own
  const kept = existing
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member !== '' && keyOf(member) !== BAGGAGE_KEY)
  return [own, ...kept].join(', ')
}

/**
 * The origin of Playwright's `baseURL` (the app's own requests get the
 * session too), or null when there is none or it is not an absolute http(s)
 * URL: then Playwright itself refuses the relative navigations that need it.
 */
export function appOriginOf(baseURL: string | undefined): string | null {
  if (typeof baseURL !== 'string' || !URL.canParse(baseURL)) return null
  const url = new URL(baseURL)
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null
}
