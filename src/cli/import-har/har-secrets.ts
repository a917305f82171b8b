import { parseExactJson } from '../../core/exact-json.js'
import { CREDENTIAL_FIELD, CREDENTIAL_HEADER } from '../../core/proxy/record.js'
import { isPlainObject } from '../../core/scenario/plain-object.js'
import { field, pairsOf } from './har-entries.js'
import { secretRedactor } from './secret-search.js'

/** What a credential reads in the scenario. */
const REDACTED = '[redacted]'
/** The most characters of credentials searched for: the search's tables take about 30 bytes a character. */
export const MAX_SECRET_CHARS = 8 * 1024 * 1024
/** Values shorter than this are not searched for: they cannot be told from other text (as `verify` redacts its key). */
const MIN_SECRET_LENGTH = 8
/** Challenges say how to authenticate and carry no credential; a route keeps them as the service sent them. */
const CHALLENGES = new Set(['www-authenticate', 'proxy-authenticate'])
/**
 * A `name=value` pair of a query or form in some text. It starts only where a name can (after a
 * separator), so that a long run of other characters is read once, not once per start.
 */
const PAIR = /(?<![^\s?&;#"'<>])([^\s?&;#"'<>=]+)=([^\s&;#"'<>]+)/g

/** HTTP/2's pseudo-headers (":authority", the host) are no credentials either. */
const isCredentialHeader = (name: string) => CREDENTIAL_HEADER.test(name) && !name.startsWith(':') && !CHALLENGES.has(name.toLowerCase())
const isCredentialField = (name: string) => CREDENTIAL_FIELD.test(name)

/** The value of each `name=value` pair, trimmed. */
const pairValues = (pairs: readonly string[]) => pairs.map((pair) => pair.slice(pair.indexOf('=') + 1).trim())

/** The secret parts of one credential header: the whole value, its credentials after the scheme (Basic's decoded too), each cookie's value. */
function partsOf(name: string, value: string): string[] {
  if (name === 'cookie') return [value, ...pairValues(value.split(';'))]
  // Set-Cookie: the first pair is the cookie; the attributes after it (Path, Expires) are not secret.
  if (name === 'set-cookie') return [value, ...pairValues(value.split(';').slice(0, 1))]
  const space = value.indexOf(' ')
  if (!name.endsWith('authorization') || space === -1) return [value]
  const credentials = value.slice(space + 1).trim()
  if (value.slice(0, space).toLowerCase() !== 'basic') return [value, credentials]
  const decoded = Buffer.from(credentials, 'base64').toString('utf8')
  return [value, credentials, decoded, decoded.slice(decoded.indexOf(':') + 1)]
}

/** The values of credential fields at any depth of a JSON text, else of its credential `name=value` pairs (a form, a query). */
function bodySecrets(text: unknown, add: (value: string) => void): void {
  if (typeof text !== 'string' || text === '') return
  let value: unknown
  try {
    value = /^\s*[[{]/.test(text) ? parseExactJson(text) : undefined
  } catch {
    // Not JSON after all: read as a form below.
  }
  if (value === undefined) {
    for (const [, name, each] of text.matchAll(PAIR)) if (isCredentialField(name as string)) add(decoded(each as string))
    return
  }
  // A stack, not recursion: a body may nest as deep as its parser allows.
  const stack: unknown[] = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (Array.isArray(item)) stack.push(...item)
    else if (isPlainObject(item))
      for (const [key, each] of Object.entries(item)) {
        if (isCredentialField(key) && (typeof each === 'string' || typeof each === 'number' || typeof each === 'bigint')) add(String(each))
        else stack.push(each)
      }
  }
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '))
  } catch {
    return text
  }
}

/** The secrets of one request or answer: credential headers, cookies, query and form fields, JSON fields. */
function messageSecrets(message: unknown, add: (value: string) => void): void {
  for (const [name, value] of pairsOf(field(message, 'headers')))
    if (isCredentialHeader(name)) for (const part of partsOf(name.toLowerCase(), value)) add(part)
  for (const [, value] of pairsOf(field(message, 'cookies'))) add(value)
  for (const [name, value] of pairsOf(field(message, 'queryString')))
    if (isCredentialField(name)) for (const each of [value, decoded(value)]) add(each)
  const url = field(message, 'url')
  if (typeof url === 'string' && URL.canParse(url))
    for (const [name, value] of new URL(url).searchParams) if (isCredentialField(name)) add(value)
  const postData = field(message, 'postData')
  for (const [name, value] of pairsOf(field(postData, 'params'))) if (isCredentialField(name)) add(value)
  bodySecrets(field(postData, 'text'), add)
  const content = field(message, 'content')
  const text = field(content, 'text')
  const base64 = field(content, 'encoding') === 'base64' && typeof text === 'string'
  bodySecrets(base64 ? Buffer.from(text, 'base64').toString('utf8') : text, add)
}

/**
 * Every credential a HAR's messages carry: the values of credential headers
 * (Authorization, cookies, X-Api-Key, X-Auth-Token...), the `cookies` lists,
 * credential query and form fields (`?api_key=`), and credential fields of JSON
 * bodies at any depth (access_token, refresh_token, password...). None may
 * reach a scenario, even echoed somewhere else.
 */
export function harSecrets(entries: readonly unknown[]): Set<string> {
  const secrets = new Set<string>()
  const add = (value: string) => {
    const trimmed = value.trim()
    if (trimmed.length >= MIN_SECRET_LENGTH) secrets.add(trimmed)
  }
  for (const entry of entries) {
    messageSecrets(field(entry, 'request'), add)
    messageSecrets(field(entry, 'response'), add)
  }
  return secrets
}

/** Whether a text holds any of the secrets, as the redaction below would find it. */
export function secretFinder(secrets: ReadonlySet<string>): (text: string) => boolean {
  const redact = secretRedactor(secrets, '')
  return (text) => redact(text) !== text
}

/**
 * A copy of `value` with every secret, wherever it occurs in a string or a key,
 * replaced by `[redacted]`, and so are the values of credential fields, of a
 * route's credential headers and of credential `name=value` pairs in text;
 * and how many strings changed. Linear in the text and the secrets' total.
 */
export function redactSecrets<T>(value: T, secrets: ReadonlySet<string>): { value: T; redacted: number } {
  const redact = secretRedactor(secrets, REDACTED)
  let redacted = 0
  const count = (before: string, after: string) => {
    if (after !== before) redacted++
    return after
  }
  const pairs = (text: string) =>
    text.includes('=') ? text.replace(PAIR, (pair, name: string) => (isCredentialField(name) ? `${name}=${REDACTED}` : pair)) : text
  const clean = (text: string) => count(text, pairs(redact(text)))
  const whole = (item: unknown) => {
    if (item === REDACTED) return item
    redacted++
    return REDACTED
  }
  const walk = (item: unknown, isCredential: (key: string) => boolean): unknown => {
    if (typeof item === 'string') return clean(item)
    if (Array.isArray(item)) return item.map((each) => walk(each, isCredential))
    if (!isPlainObject(item)) return item
    const copy: Record<string, unknown> = {}
    // A route's headers are named as headers are; any other object's keys as fields.
    const inner = (key: string) => (key === 'headers' && typeof item['method'] === 'string' ? isCredentialHeader : isCredentialField)
    for (const [key, each] of Object.entries(item)) {
      const scalar = typeof each === 'string' || typeof each === 'number' || typeof each === 'bigint'
      const kept = scalar && isCredential(key) ? whole(each) : walk(each, inner(key))
      // defineProperty, not assignment: a "__proto__" key stays a plain own property.
      Object.defineProperty(copy, clean(key), { value: kept, enumerable: true, writable: true, configurable: true })
    }
    return copy
  }
  return { value: walk(value, isCredentialField) as T, redacted }
}
