// What real traffic (a HAR, a recording, a proxy session) showed of the service's documented outcomes, named as
// coverage names them (docs/coverage.md), and where the deployment answered otherwise than the simulator would:
// the first hint that the simulator needs a switch, which `petstore-sim verify` then names.
import { DEFAULT_DEPRECATION } from '../operations/get-pet-by-id.js'
import { isJsonMediaType, OPERATION_TABLE } from '../routes/route-table.js'
import { outcomeId, SPEC_OUTCOMES } from './outcomes.js'

/** One answer of the traffic, as a HAR entry or a recording holds it. */
export interface TrafficAnswer {
  method: string
  /** Under the API base, e.g. "/store/orders/101"; a query is ignored. */
  path: string
  status: number
  /** Header names in any case. */
  headers: Readonly<Record<string, string>> | readonly (readonly [string, string])[]
  /** The answer's body text; undefined when none. */
  body: string | undefined
}

export interface TrafficSummary {
  /** The documented outcomes seen, in the OpenAPI document's order, each with how many answers were it. */
  outcomes: { id: string; count: number }[]
  /** Answers to a method and path no spec operation takes (routes). */
  beyond: number
  /** One line per outcome and field where the deployment answered differently from the simulator. Bounded: 20, then `and N more differences`. */
  differences: string[]
}

/** A body longer than this (in characters, so never fewer bytes) is not parsed: its answer is read by its status alone. */
const MAX_BODY = 1024 * 1024
/** The most difference lines kept; the rest are counted in one last line. */
const MAX_LINES = 20
/** How many characters of a deployment's value a line shows. */
const SHOWN = 80

/** The four headers compared: what the simulator sends for a documented outcome and a client reads. */
type Compared = 'Content-Type' | 'WWW-Authenticate' | 'Deprecation' | 'Sunset'

/**
 * The headers the OpenAPI document names per operation and status (beside Content-Type, which its `content`
 * implies): what the simulator sends. traffic-outcomes.test.ts holds this to the document and to the simulator.
 */
const DOCUMENTED_HEADERS: Readonly<Record<string, Readonly<Record<number, readonly Compared[]>>>> = {
  listOrders: { 401: ['WWW-Authenticate'] },
  cancelOrder: { 401: ['WWW-Authenticate'] },
  getPetById: { 200: ['Deprecation', 'Sunset'], 401: ['WWW-Authenticate', 'Deprecation', 'Sunset'], 404: ['Deprecation', 'Sunset'] },
}

/** The dates the simulator announces unless a scenario or an option sets them (get-pet-by-id.ts). */
const DEFAULT_DEPRECATION_HEADER = `@${Math.floor(Date.parse(DEFAULT_DEPRECATION.deprecatedAt) / 1000)}`
const DEFAULT_SUNSET_HEADER = new Date(DEFAULT_DEPRECATION.sunsetAt).toUTCString()

/** What an operation documents at one status: a success (no code), or the Error codes its examples name. */
interface Documented {
  success: boolean
  codes: string[]
}

/** The documented statuses, by `<operation>.<status>`. */
const DOCUMENTED: ReadonlyMap<string, Documented> = (() => {
  const byStatus = new Map<string, Documented>()
  for (const { operation, status, code } of SPEC_OUTCOMES.outcomes) {
    const key = outcomeId(operation, status, null)
    const known = byStatus.get(key) ?? { success: code === null, codes: [] }
    if (code !== null && !known.codes.includes(code)) known.codes.push(code)
    byStatus.set(key, known)
  }
  return byStatus
})()

/** What a terminal acts on rather than shows (C0, C1, DEL, lone surrogates, line separators, bidi controls), and the quote's own two. */
const UNSHOWN = /[\p{Cc}\p{Cs}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"\\]/gu

/** A credential's look: a scheme and its token, a JWT, or a long run of mixed-case letters and digits. */
function looksSecret(text: string): boolean {
  if (/\b(?:bearer|basic|token)\s+\S/i.test(text) || /\beyJ[\w-]{8,}/.test(text)) return true
  return (text.match(/[\w+/=-]{24,}/g) ?? []).some((run) => /\d/.test(run) && /[A-Z]/.test(run) && /[a-z]/.test(run))
}

/**
 * A deployment's value as a line shows it: quoted, its first 80 characters with every control escaped
 * (it goes to a terminal), or a note when it looks like a credential.
 */
function shown(text: string): string {
  const head = text.length > SHOWN ? text.slice(0, SHOWN) : text
  if (looksSecret(head)) return '(a value that looks like a credential, not shown)'
  const escaped = head.replace(UNSHOWN, (char) => {
    if (char === '"' || char === '\\') return `\\${char}`
    const code = char.codePointAt(0) ?? 0
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
  return `"${escaped}"${text.length > SHOWN ? `… (${text.length} characters)` : ''}`
}

/** What a JSON value is, for a line that says what a field should have been. */
function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** The documented codes as a line lists them: "a", "a or b", "a, b or c". */
function either(codes: readonly string[]): string {
  return codes.length <= 1 ? (codes[0] ?? '') : `${codes.slice(0, -1).join(', ')} or ${codes.at(-1)}`
}

/** The compared headers of an answer, by lower-case name, each its first value. */
function comparedHeaders(headers: TrafficAnswer['headers']): Map<string, string> {
  const isPairs = (each: TrafficAnswer['headers']): each is readonly (readonly [string, string])[] => Array.isArray(each)
  const found = new Map<string, string>()
  for (const [name, value] of isPairs(headers) ? headers : Object.entries(headers)) {
    if (typeof name !== 'string' || typeof value !== 'string') continue
    const lower = name.toLowerCase()
    if (!found.has(lower) && /^(?:content-type|www-authenticate|deprecation|sunset)$/.test(lower)) found.set(lower, value.trim())
  }
  return found
}

/** The difference lines: each (outcome, field) once, the first `MAX_LINES` kept and the rest counted. */
function createDifferences() {
  // Keys are bounded whatever the traffic: operations x statuses (100 to 599) or documented ids, x a few fields.
  const keys = new Set<string>()
  const lines: string[] = []
  return {
    add(outcome: string, field: string, text: () => string): void {
      const key = `${outcome} ${field}`
      if (keys.has(key)) return
      keys.add(key)
      if (lines.length < MAX_LINES) lines.push(`${outcome}: ${text()}`)
    },
    list(): string[] {
      const more = keys.size - lines.length
      return more > 0 ? [...lines, `and ${more} more difference${more === 1 ? '' : 's'}`] : lines
    },
  }
}
type Differences = ReturnType<typeof createDifferences>

/** The body's JSON value, or what it is instead; a body over `MAX_BODY` is not read (`skipped`). */
function parsedBody(body: string | undefined): { value: unknown } | 'none' | 'not JSON' | 'skipped' {
  if (body !== undefined && body.length > MAX_BODY) return 'skipped'
  if (body === undefined || body.trim() === '') return 'none'
  try {
    return { value: JSON.parse(body) as unknown }
  } catch {
    return 'not JSON'
  }
}

/** Compares one documented header of an answer named `outcome` with what the simulator sends. */
function compareHeader(name: Compared, value: string | undefined, outcome: string, differences: Differences): void {
  const add = (text: string) => differences.add(outcome, name, () => text)
  if (name === 'Content-Type') {
    const media = (value ?? '').split(';')[0]?.trim() ?? ''
    if (value === undefined || media === '') add('the deployment sends no Content-Type; the simulator sends application/json')
    else if (!isJsonMediaType(value)) add(`the deployment's Content-Type is ${shown(media)}; the simulator sends application/json`)
  } else if (name === 'WWW-Authenticate') {
    // Only the scheme: a client picks its credential by it, and the rest (a realm, an error) is the deployment's own.
    const scheme = value?.split(/[\s,]/)[0] ?? ''
    if (value === undefined || scheme === '') add('the deployment sends no WWW-Authenticate; the simulator sends Bearer')
    else if (scheme.toLowerCase() !== 'bearer')
      add(`the deployment's WWW-Authenticate scheme is ${shown(scheme)}; the simulator sends Bearer`)
  } else {
    const fallback = name === 'Deprecation' ? DEFAULT_DEPRECATION_HEADER : DEFAULT_SUNSET_HEADER
    const same = value === fallback || (name === 'Sunset' && value !== undefined && Date.parse(value) === Date.parse(fallback))
    if (value === undefined) add(`the deployment sends no ${name}; the simulator sends ${fallback} unless its deprecation dates are set`)
    else if (!same) add(`the deployment's ${name} is ${shown(value)}; the simulator sends ${fallback} unless its deprecation dates are set`)
  }
}

/**
 * Compares an Error body's fields with the spec's Error object (code, message and status, all required). The
 * message's text is not compared: the simulator's names the request's own id or key, so it differs per request.
 * Returns the documented code the body names, or null.
 */
function readError(operation: string, status: number, body: string | undefined, differences: Differences): string | null {
  const documented = DOCUMENTED.get(outcomeId(operation, status, null))?.codes ?? []
  const bare = outcomeId(operation, status, null)
  const parsed = parsedBody(body)
  if (parsed === 'skipped') return null
  if (parsed === 'none') {
    differences.add(bare, 'body', () => 'the deployment sent no body; the simulator sends an Error object')
    return null
  }
  if (parsed === 'not JSON') {
    differences.add(bare, 'body', () => 'the body is not JSON')
    return null
  }
  const value = parsed.value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    differences.add(bare, 'body', () => `the deployment's body is ${kindOf(value)}, not an Error object`)
    return null
  }
  const fields = value as Record<string, unknown>
  const code = fields['code']
  const known = typeof code === 'string' && documented.includes(code) ? code : null
  if (!Object.hasOwn(fields, 'code')) differences.add(bare, 'code', () => `the deployment's Error body has no "code"`)
  else if (typeof code !== 'string') differences.add(bare, 'code', () => `the deployment's Error "code" is ${kindOf(code)}, not a string`)
  else if (known === null)
    differences.add(bare, 'code', () => `the deployment's code is ${shown(code)}; the simulator answers ${either(documented)}`)
  const outcome = outcomeId(operation, status, known)
  if (!Object.hasOwn(fields, 'message')) differences.add(outcome, 'message', () => `the deployment's Error body has no "message"`)
  else if (typeof fields['message'] !== 'string')
    differences.add(outcome, 'message', () => `the deployment's Error "message" is ${kindOf(fields['message'])}, not a string`)
  const said = fields['status']
  if (!Object.hasOwn(fields, 'status')) differences.add(outcome, 'status', () => `the deployment's Error body has no "status"`)
  else if (said !== status) {
    const what = typeof said === 'number' ? String(said) : kindOf(said)
    differences.add(
      outcome,
      'status',
      () => `the deployment's Error "status" is ${what}; the simulator sends the answer's status, ${status}`,
    )
  }
  return known
}

/** The outcome a success names (an empty list apart), after comparing its body with what the simulator sends. */
function readSuccess(operation: string, status: number, body: string | undefined, differences: Differences): string {
  const outcome = outcomeId(operation, status, null)
  // A 204 has no body to compare; a client reads none.
  if (status === 204) return outcome
  const parsed = parsedBody(body)
  if (parsed === 'skipped') return outcome
  if (parsed === 'none' || parsed === 'not JSON') {
    differences.add(outcome, 'body', () =>
      parsed === 'none' ? 'the deployment sent no body; the simulator sends JSON' : 'the body is not JSON',
    )
    return outcome
  }
  if (operation !== 'listOrders') return outcome
  if (!Array.isArray(parsed.value)) {
    differences.add(outcome, 'body', () => `the deployment's body is ${kindOf(parsed.value)}, not a JSON array`)
    return outcome
  }
  return outcomeId(operation, status, null, parsed.value.length === 0)
}

/** Reads one answer at an operation: the documented outcome it was (counted), or null, and its differences. */
function readAnswer(operation: string, answer: TrafficAnswer, differences: Differences): string | null {
  const { status } = answer
  const documented = DOCUMENTED.get(outcomeId(operation, status, null))
  if (documented === undefined) {
    differences.add(
      outcomeId(operation, status, null),
      'status',
      () => `the deployment answered ${status}, which the service does not document`,
    )
    return null
  }
  const code = documented.success ? null : readError(operation, status, answer.body, differences)
  const outcome = documented.success ? readSuccess(operation, status, answer.body, differences) : outcomeId(operation, status, code)
  const headers = comparedHeaders(answer.headers)
  const compared: Compared[] = status === 204 ? [] : ['Content-Type']
  for (const name of [...compared, ...(DOCUMENTED_HEADERS[operation]?.[status] ?? [])])
    compareHeader(name, headers.get(name.toLowerCase()), outcome, differences)
  return documented.success || code !== null ? outcome : null
}

/**
 * Which documented outcomes the traffic showed and how often, how many answers were beyond the spec, and where
 * the deployment answered a documented outcome otherwise than the simulator. An answer whose status is no HTTP
 * status (a HAR's 0 for a request that got none) is no answer and is not counted.
 * @example
 * summarizeTraffic([{ method: 'GET', path: '/store/orders', status: 200, headers: { 'content-type': 'application/json' }, body: '[]' }])
 * // { outcomes: [{ id: 'listOrders.200.empty', count: 1 }], beyond: 0, differences: [] }
 */
export function summarizeTraffic(answers: Iterable<TrafficAnswer>): TrafficSummary {
  const counts = new Map<string, number>()
  const differences = createDifferences()
  let beyond = 0
  for (const answer of answers) {
    if (!Number.isInteger(answer.status) || answer.status < 100 || answer.status > 599) continue
    const found = OPERATION_TABLE.match(String(answer.method).toUpperCase(), String(answer.path))
    if (!('operation' in found)) {
      beyond++
      continue
    }
    const outcome = readAnswer(found.operation.id, answer, differences)
    if (outcome !== null) counts.set(outcome, (counts.get(outcome) ?? 0) + 1)
  }
  const outcomes = SPEC_OUTCOMES.outcomes.flatMap(({ id }) => {
    const count = counts.get(id) ?? 0
    return count > 0 ? [{ id, count }] : []
  })
  return { outcomes, beyond, differences: differences.list() }
}

/** The hint a summary with differences ends with: `verify` names the switch (docs/verify.md). */
const VERIFY_HINT =
  'To see which switch of the simulator makes it answer as the deployment does, run: petstore-sim verify --target <url> (docs/verify.md).'

/** The lines a command prints (no trailing newline each): the outcomes line, then each difference. */
export function describeTraffic(summary: TrafficSummary): string[] {
  const total = SPEC_OUTCOMES.outcomes.length
  const seen = summary.outcomes.map(({ id, count }) => `${id} (${count})`).join(', ')
  const shownCount = summary.outcomes.length
  const head =
    shownCount === 0
      ? `The traffic showed none of the ${total} documented outcomes`
      : `The traffic showed ${shownCount} of the ${total} documented outcomes: ${seen}`
  const beyond = summary.beyond === 0 ? 'no answer' : `${summary.beyond} answer${summary.beyond === 1 ? '' : 's'}`
  const lines = [`${head}; ${beyond} beyond the spec.`, ...summary.differences]
  return summary.differences.length === 0 ? lines : [...lines, VERIFY_HINT]
}
