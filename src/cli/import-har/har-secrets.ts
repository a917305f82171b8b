import { isPlainObject } from '../../core/scenario/plain-object.js'

/** Values shorter than this are not searched for: they cannot be told from other text (as `verify` redacts its key). */
const MIN_SECRET_LENGTH = 8
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie'])

function field(record: unknown, name: string): unknown {
  return isPlainObject(record) ? record[name] : undefined
}

/** The value of each `name=value` pair, trimmed. */
const pairValues = (pairs: readonly string[]) => pairs.map((pair) => pair.slice(pair.indexOf('=') + 1).trim())

/** The secret parts of one credential header: the whole value, its credentials after the scheme (Basic's decoded too), each cookie's value. */
function partsOf(name: string, value: string): string[] {
  if (name === 'cookie') return [value, ...pairValues(value.split(';'))]
  // Set-Cookie: the first pair is the cookie; the attributes after it (Path, Expires) are not secret.
  if (name === 'set-cookie') return [value, ...pairValues(value.split(';').slice(0, 1))]
  const space = value.indexOf(' ')
  if (space === -1) return [value]
  const credentials = value.slice(space + 1).trim()
  if (value.slice(0, space).toLowerCase() !== 'basic') return [value, credentials]
  const decoded = Buffer.from(credentials, 'base64').toString('utf8')
  return [value, credentials, decoded, decoded.slice(decoded.indexOf(':') + 1)]
}

/**
 * Every credential a HAR's messages carry: the values of Authorization,
 * Proxy-Authorization, Cookie and Set-Cookie headers, and the HAR's own
 * `cookies` lists. None of them may reach a scenario, even echoed in a body.
 */
export function harSecrets(entries: readonly unknown[]): Set<string> {
  const secrets = new Set<string>()
  for (const entry of entries) {
    for (const message of [field(entry, 'request'), field(entry, 'response')]) {
      const headers = field(message, 'headers')
      for (const header of Array.isArray(headers) ? headers : []) {
        const name = field(header, 'name')
        const value = field(header, 'value')
        if (typeof name !== 'string' || typeof value !== 'string' || !CREDENTIAL_HEADERS.has(name.toLowerCase())) continue
        for (const part of partsOf(name.toLowerCase(), value)) secrets.add(part)
      }
      const cookies = field(message, 'cookies')
      for (const cookie of Array.isArray(cookies) ? cookies : []) {
        const value = field(cookie, 'value')
        if (typeof value === 'string') secrets.add(value)
      }
    }
  }
  for (const secret of secrets) if (secret.length < MIN_SECRET_LENGTH) secrets.delete(secret)
  return secrets
}

/** A copy of `value` with every secret, wherever it occurs in a string or a key, replaced by `[redacted]`; and how many strings changed. */
export function redactSecrets<T>(value: T, secrets: ReadonlySet<string>): { value: T; redacted: number } {
  // Longest first: a cookie's value is part of the Cookie header's value.
  const ordered = [...secrets].sort((a, b) => b.length - a.length)
  let redacted = 0
  const clean = (text: string): string => {
    const result = ordered.reduce((each, secret) => each.split(secret).join('[redacted]'), text)
    if (result !== text) redacted++
    return result
  }
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return clean(item)
    if (Array.isArray(item)) return item.map(walk)
    if (!isPlainObject(item)) return item
    const copy: Record<string, unknown> = {}
    for (const [key, each] of Object.entries(item)) {
      // defineProperty, not assignment: a "__proto__" key stays a plain own property.
      Object.defineProperty(copy, clean(key), { value: walk(each), enumerable: true, writable: true, configurable: true })
    }
    return copy
  }
  return { value: (ordered.length === 0 ? value : walk(value)) as T, redacted }
}
