// A pact of the state's requests, and Pact's state changes: what a provider team's verification needs.
import { invalidRequest } from '../api-error.js'
import { pactJson } from '../pact/pact-json.js'
import type { PactDocument } from '../pact/pact-document.js'
import type { PactOptions } from '../pact/pact-names.js'
import type { ProviderStateChange as StateChange } from '../pact/provider-states.js'
import { quote } from '../quote-value.js'
import { operation } from './admin-operation.js'

export const PACT_OPERATIONS = {
  getPact: operation({
    method: 'GET',
    path: '/pact',
    tag: 'pact',
    summary: 'The requests answered so far as a Pact contract (specification v4)',
    description:
      "One interaction per distinct provider state, request and response, oldest first; only what the service's rules answered (no fault, Prefer or rate limit), nothing that changes from run to run. Paths are under the API's base (/store/orders), so a verifier's provider URL ends with /v1. DELETE /__sim/requests does not empty it.",
    query: {
      consumer: {
        schema: 'PacticipantName',
        required: true,
        description: "The consuming app's name: 1 to 64 letters, digits, '.', '_' or '-'.",
      },
      provider: { schema: 'PacticipantName', description: "The provider's name (default petstore-orders-service), as the consumer." },
    },
    status: 200,
    answer: { description: 'The pact.', schema: 'Pact' },
    errors: {
      400: 'invalid_request naming consumer or provider (missing, or not 1 to 64 of A-Z a-z 0-9 . _ -), an unknown query field, or a bad X-Sim-Session header.',
    },
    run: ({ view, query }) => {
      const unknown = Object.keys(query).find((field) => !['consumer', 'provider'].includes(field))
      if (unknown !== undefined) throw invalidRequest(`Unknown query field ${quote(unknown)}: GET /__sim/pact takes consumer and provider.`)
      // The view checks the names (a 400 naming the field) and builds the same pact as in process, byte for byte.
      return view.pact(query as unknown as PactOptions)
    },
    text: (pact: PactDocument) => pactJson(pact),
  }),
  changeProviderState: operation({
    method: 'POST',
    path: '/provider-states',
    tag: 'pact',
    summary: "Pact's state change: put the state in a provider state a pact names",
    description:
      "The state-change request of Pact's verifier (providerStatesSetupUrl, with the state in the body). An order state adds or changes that order (a new one gets petId 1, quantity 1, shipDate 2026-01-01T00:00:00.000Z) or removes it, and lifts a key refusal; 'the key is not accepted' refuses every key until a teardown or the next reset. A teardown, or no state (\"\", which the verifier sends around an interaction that names none), lifts the refusal and leaves the orders as they are.",
    body: {
      schema: 'ProviderStateChange',
      required: true,
      hint: 'Send Pact\'s state change: {"state": "order 1 is pending", "params": {"id": 1}, "action": "setup"}.',
    },
    status: 200,
    answer: { description: 'The state is set up (or torn down).', schema: 'ProviderStateDone' },
    errors: {
      400: 'invalid_request: an unknown state (the message lists the known ones), params.id other than the id the state names, an action other than setup or teardown, or a body that is not a JSON object.',
    },
    run: async ({ view, body }) => {
      await view.changeProviderState(body as StateChange)
      const { state, action = 'setup' } = body as { state: string; action?: string }
      return { state, action }
    },
  }),
}
