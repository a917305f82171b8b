/** A Pact file of specification v4, as far as the simulator writes one: HTTP interactions only. */
export interface PactDocument {
  consumer: { name: string }
  provider: { name: string }
  interactions: PactInteraction[]
  metadata: {
    pactSpecification: { version: '4.0' }
    /** Present only when the ledger was full and some distinct interactions were left out. */
    'petstore-orders-simulator'?: { interactionsLeftOut: number }
  }
}

/** A provider state as Pact sends it to the provider's state-change URL. */
export interface PactProviderState {
  name: string
  params?: Record<string, unknown>
}

/** One matcher of a v4 matching rule; the fields besides `match` depend on it (`regex`, `format`, `min`). */
export interface PactMatcher {
  match: 'type' | 'regex' | 'integer' | 'boolean' | 'datetime'
  regex?: string
  format?: string
  min?: number
}

/** Matching rules by category (`body`, `header`), then by JSON path (`$[*].id`) or header name. */
export type PactMatchingRules = Record<string, Record<string, { combine: 'AND'; matchers: PactMatcher[] }>>

interface PactBody {
  content: unknown
  contentType: string
  encoded: false
}

export interface PactInteraction {
  type: 'Synchronous/HTTP'
  description: string
  providerStates?: PactProviderState[]
  request: {
    method: string
    path: string
    query?: Record<string, string[]>
    headers?: Record<string, string[]>
  }
  response: {
    status: number
    headers?: Record<string, string[]>
    body?: PactBody
    matchingRules?: PactMatchingRules
  }
}
