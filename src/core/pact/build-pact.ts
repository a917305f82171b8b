import type { Int64Key } from '../int64.js'
import type { OperationId } from '../operations/registry.js'
import type { PactDocument, PactInteraction, PactMatcher, PactMatchingRules } from './pact-document.js'
import { providerStateOf, type Given } from './provider-states.js'

/** What the journal keeps of a request the service's rules answered: enough to write its interaction. */
export interface InteractionFacts {
  method: string
  /** The URL path and query, as sent. */
  path: string
  status: number
  operation: OperationId | null
  orderId: Int64Key | null
  given: Given | null
  /** The Authorization header as sent, or null. */
  authorization: string | null
  /** The Error body's code and message of an error answer, else null. */
  code: string | null
  message: string | null
}

/** The fixed example order a list interaction shows: its values are examples, its matching rules the contract. */
const EXAMPLE_ORDER = { id: 1, petId: 1, quantity: 1, shipDate: '2026-01-01T00:00:00.000Z', complete: false }
/** A JSON integer of up to 19 digits, sign aside: what int64 ids look like on the wire. */
const INT64_PATTERN = '^-?[0-9]{1,19}$'
/** shipDate's format in Pact's date-time syntax, which the simulator's dates follow. */
const DATE_TIME_FORMAT = "yyyy-MM-dd'T'HH:mm:ss.SSSX"
const JSON_TYPE = 'application/json'

const rule = (...matchers: PactMatcher[]) => ({ combine: 'AND' as const, matchers })

function listRules(withStatus: boolean): PactMatchingRules {
  const body: PactMatchingRules[string] = {
    $: rule({ match: 'type', min: 0 }),
    '$[*].id': rule({ match: 'regex', regex: INT64_PATTERN }),
    '$[*].petId': rule({ match: 'regex', regex: INT64_PATTERN }),
    '$[*].quantity': rule({ match: 'integer' }),
    '$[*].shipDate': rule({ match: 'datetime', format: DATE_TIME_FORMAT }),
    '$[*].complete': rule({ match: 'boolean' }),
  }
  if (withStatus) body['$[*].status'] = rule({ match: 'type' })
  return { body }
}

/** The path under the API's base (what a provider's base URL ends with), and its query as Pact writes it. */
function splitTarget(target: string, basePath: string): { path: string; query?: Record<string, string[]> } {
  const mark = target.indexOf('?')
  const full = mark === -1 ? target : target.slice(0, mark)
  const path = basePath !== '' && full.startsWith(`${basePath}/`) ? full.slice(basePath.length) : full
  if (mark === -1) return { path }
  const query: Record<string, string[]> = {}
  for (const [name, value] of new URLSearchParams(target.slice(mark + 1))) {
    const values = query[name] ?? []
    values.push(value)
    query[name] = values
  }
  return { path, query }
}

function responseOf(facts: InteractionFacts): PactInteraction['response'] {
  if (facts.operation === 'listOrders' && facts.status === 200) {
    const withStatus = facts.given === 'status-exposed'
    return {
      status: 200,
      headers: { 'Content-Type': [JSON_TYPE] },
      body: { content: [withStatus ? { ...EXAMPLE_ORDER, status: 'pending' } : EXAMPLE_ORDER], contentType: JSON_TYPE, encoded: false },
      matchingRules: listRules(withStatus),
    }
  }
  if (facts.code === null) return { status: facts.status }
  const headers: Record<string, string[]> = { 'Content-Type': [JSON_TYPE] }
  // RFC 6750's challenge is part of the 401 a consumer may rely on.
  if (facts.status === 401) headers['WWW-Authenticate'] = ['Bearer']
  return {
    status: facts.status,
    headers,
    body: { content: { code: facts.code, message: facts.message ?? '', status: facts.status }, contentType: JSON_TYPE, encoded: false },
    // The code and status are the contract; the message is prose.
    matchingRules: { body: { '$.message': rule({ match: 'type' }) } },
  }
}

/** The interaction of one request, without its description. */
function interactionOf(facts: InteractionFacts, basePath: string): Omit<PactInteraction, 'description'> {
  const state = providerStateOf(facts.status, facts.orderId, facts.given)
  const { path, query } = splitTarget(facts.path, basePath)
  return {
    type: 'Synchronous/HTTP',
    ...(state === undefined ? {} : { providerStates: [state] }),
    request: {
      method: facts.method,
      path,
      ...(query === undefined ? {} : { query }),
      ...(facts.authorization === null ? {} : { headers: { Authorization: [facts.authorization] } }),
    },
    response: responseOf(facts),
  }
}

function describe(interaction: Omit<PactInteraction, 'description'>, facts: InteractionFacts): string {
  const { request, response, providerStates } = interaction
  const given = providerStates?.[0] === undefined ? '' : ` given ${providerStates[0].name}`
  const withoutKey = request.headers === undefined ? ' without a key' : ''
  return `${request.method} ${request.path}${withoutKey}${given}: ${response.status}${facts.code === null ? '' : ` ${facts.code}`}`
}

/** JSON of an interaction with int64 ids beyond 2^53 written exactly: equal strings, equal interactions. */
export function interactionKey(value: Omit<PactInteraction, 'description'>): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item))
}

/** The interaction with its description, `summary` numbered " (2)", " (3)"... when another in `used` reads alike. */
export function described({ type, ...rest }: Omit<PactInteraction, 'description'>, summary: string, used: Set<string>): PactInteraction {
  let description = summary
  for (let count = 2; used.has(description); count++) description = `${summary} (${count})`
  used.add(description)
  return { type, description, ...rest }
}

/** A pact document between `parties`; `leftOut` counts the interactions a full ledger did not keep. */
export function pactDocument(
  parties: Pick<PactDocument, 'consumer' | 'provider'>,
  interactions: PactInteraction[],
  leftOut: number,
): PactDocument {
  return {
    consumer: parties.consumer,
    provider: parties.provider,
    interactions,
    metadata: {
      pactSpecification: { version: '4.0' },
      ...(leftOut === 0 ? {} : { 'petstore-orders-simulator': { interactionsLeftOut: leftOut } }),
    },
  }
}

/**
 * A Pact v4 document of the requests in `facts`, oldest first: one
 * interaction per distinct state, request and response, described by them,
 * with no time, duration or session in it, so the same requests always give
 * the same bytes.
 */
export function buildPact(
  facts: Iterable<InteractionFacts>,
  names: { consumer: string; provider: string },
  basePath: string,
  leftOut = 0,
): PactDocument {
  const seen = new Set<string>()
  const descriptions = new Set<string>()
  const interactions: PactInteraction[] = []
  for (const each of facts) {
    // The deprecated pets operation has no contract to verify: the spec shows neither its record nor its answers.
    if (each.operation !== 'listOrders' && each.operation !== 'cancelOrder') continue
    const interaction = interactionOf(each, basePath)
    const key = interactionKey(interaction)
    if (seen.has(key)) continue
    seen.add(key)
    // Distinct interactions whose summary reads alike (two different keys refused) stay apart.
    interactions.push(described(interaction, describe(interaction, each), descriptions))
  }
  return pactDocument({ consumer: { name: names.consumer }, provider: { name: names.provider } }, interactions, leftOut)
}
