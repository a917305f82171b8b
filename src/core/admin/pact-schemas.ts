// The shapes of Pact's calls: a pact file, and the state change of its verifier (admin components, as admin-schemas.ts's).
import * as v from 'valibot'
import { Int64Input, PacticipantName } from './admin-schemas.js'

const strings = v.record(v.string(), v.array(v.string()))
const named = v.object({ name: PacticipantName })

export const ProviderStateChange = v.object({
  state: v.pipe(
    v.string(),
    v.description(
      'order {id} is pending | order {id} is shipped | order {id} is cancelled | order {id} does not exist | the key is not accepted',
    ),
    v.examples(['order 1 is pending']),
  ),
  params: v.optional(v.object({ id: v.optional(Int64Input) })),
  action: v.optional(v.picklist(['setup', 'teardown']), 'setup'),
})
export const ProviderStateDone = v.strictObject({ state: v.string(), action: v.picklist(['setup', 'teardown']) })

const interaction = v.strictObject({
  type: v.literal('Synchronous/HTTP'),
  description: v.string(),
  providerStates: v.optional(v.array(v.object({ name: v.string(), params: v.optional(v.record(v.string(), v.unknown())) }))),
  request: v.strictObject({ method: v.string(), path: v.string(), query: v.optional(strings), headers: v.optional(strings) }),
  response: v.strictObject({
    status: v.pipe(v.number(), v.integer()),
    headers: v.optional(strings),
    body: v.optional(v.object({ content: v.unknown(), contentType: v.string(), encoded: v.literal(false) })),
    matchingRules: v.optional(
      v.record(
        v.string(),
        v.record(v.string(), v.object({ combine: v.literal('AND'), matchers: v.array(v.looseObject({ match: v.unknown() })) })),
      ),
    ),
  }),
})
export const Pact = v.pipe(
  v.strictObject({
    consumer: named,
    provider: named,
    interactions: v.array(interaction),
    metadata: v.object({
      pactSpecification: v.object({ version: v.literal('4.0') }),
      'petstore-orders-simulator': v.optional(
        v.object({ interactionsLeftOut: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))) }),
      ),
    }),
  }),
  v.description('A Pact file of specification v4 with HTTP interactions.'),
)
