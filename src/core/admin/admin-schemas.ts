// The shapes the admin API reads and answers, as valibot schemas: the admin document's components and the admin client's types.
import * as v from 'valibot'
import { MAX_TEST_NAME, MAX_TESTS } from '../outcome-coverage/current-test.js'
import { OPERATION_IDS } from '../operations/registry.js'
import { ROUTE_METHODS } from '../routes/route-schema.js'
import { described, exactly, int, nullable, optional, whole } from './schema-parts.js'

// A bigint over the wire, past 2^53: said as a number to valibot's converter, which has no JSON Schema for a bigint.
/** A string of a pattern with a slash, which a RegExp's source writes escaped. */
const slashed = (pattern: string) => exactly(v.pipe(v.string(), v.regex(new RegExp(pattern))), { type: 'string', pattern })

export const Int64 = exactly(v.pipe(v.number(), v.integer()), { type: 'integer', format: 'int64' }) as unknown as v.GenericSchema<
  number | bigint
>
export const Int64Input = described(
  v.union([Int64, v.pipe(v.string(), v.regex(/^\s*[+-]?[0-9]+\s*$/))]),
  'An int64 as a JSON integer (exact beyond 2^53), or as a decimal string.',
)
export const DateTime = exactly(v.string(), { type: 'string', format: 'date-time' })
export const OperationId = v.picklist(OPERATION_IDS)
export const OrderStatus = v.picklist(['pending', 'shipped', 'cancelled'])
export const SessionId = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._:-]{1,128}$/))
export const PacticipantName = v.pipe(v.string(), v.regex(/^[A-Za-z0-9._-]{1,64}$/))

/** The Error body every refusal carries; the document takes its JSON Schema from the order API's (admin-document.ts). */
export const ErrorBody = v.strictObject({ code: v.string(), message: v.string(), status: v.pipe(v.number(), v.integer()) })

export const Endpoints = v.strictObject({ endpoints: v.array(slashed('^[A-Z]+(, [A-Z]+)* /__sim')) })
export const Redirect = v.strictObject({ location: v.string(), message: v.string() })
/** A JSON-RPC 2.0 message of the Model Context Protocol: the MCP SDK reads and writes its fields. */
export const McpMessage = described(
  v.looseObject({ jsonrpc: v.literal('2.0') }),
  'A JSON-RPC 2.0 message of the Model Context Protocol (https://modelcontextprotocol.io), one per request: no batch.',
)

export const Lifecycle = nullable(
  v.strictObject({ min: int(0), max: int(0) }),
  'How long after it is placed a pending order ships on its own, in ms (drawn from min to max); null when orders never ship on their own.',
)

/** The order API's Order with its status: the admin document takes its fields from the order API's (admin-document.ts). */
export const AdminOrder = v.strictObject({
  id: Int64,
  petId: v.optional(Int64),
  quantity: v.optional(whole()),
  shipDate: v.optional(DateTime),
  complete: v.optional(v.boolean()),
  status: OrderStatus,
})

export const State = v.strictObject({
  scenario: described(v.string(), "The current scenario's name."),
  description: v.string(),
  source: described(v.string(), 'Its built-in name, a file path, or its name when given as an object.'),
  apiKeys: described(v.array(v.string()), 'The keys the scenario accepts.'),
  seed: nullable(int(0), "The generator seed in force, or null for the scenario's own."),
  options: v.strictObject({
    baseUrl: v.string(),
    exposeStatus: v.boolean(),
    afterCancel: v.picklist(['keep', 'remove']),
    deprecation: v.strictObject({ deprecatedAt: DateTime, sunsetAt: DateTime }),
    lifecycle: Lifecycle,
    proxy: nullable(
      v.strictObject({ target: v.string(), record: v.boolean() }),
      'Where requests no operation or route takes are forwarded (--proxy), and whether their answers become routes (--record); null: nowhere. Never the key.',
    ),
  }),
  orders: v.array(AdminOrder),
  routes: described(
    v.array(
      v.strictObject({
        method: v.picklist(ROUTE_METHODS),
        path: v.string(),
        status: int(200, 599),
        headers: v.optional(v.record(v.string(), v.string())),
        body: v.optional(v.unknown()),
        auth: v.optional(v.boolean()),
        query: v.optional(v.record(v.string(), v.string())),
      }),
    ),
    "Answers for what the spec does not show: the scenario's routes, then those recorded while forwarding (docs/proxy.md).",
  ),
})

export const ResetRequest = v.strictObject({
  scenario: optional(v.string(), 'A name from GET /__sim/scenarios; the current scenario without one.'),
  seed: optional(int(0, Number.MAX_SAFE_INTEGER, "Replaces the seed of the scenario's order generator.")),
})

export const NewOrder = v.strictObject({
  id: optional(Int64Input, 'Default: one past the largest id.'),
  petId: optional(Int64Input),
  quantity: optional(int()),
  shipDate: optional(DateTime),
  complete: optional(v.boolean()),
  status: optional(OrderStatus, 'Default: pending.'),
})

export const OrderPatch = described(
  v.strictObject({
    status: optional(OrderStatus),
    petId: optional(v.nullable(Int64Input)),
    quantity: optional(v.nullable(int())),
    shipDate: optional(v.nullable(DateTime)),
    complete: optional(v.nullable(v.boolean())),
  }),
  'The fields to change; null removes an optional one.',
)

export const Duration = described(
  v.union([
    v.pipe(v.number(), v.minValue(0), v.maxValue(86_400_000)),
    v.pipe(v.string(), v.regex(/^\s*[0-9]{1,9}(\.[0-9]{1,3})?(ms|s|m|h)\s*$/)),
  ]),
  'Milliseconds as a number, or a string <number><ms|s|m|h> such as "30s", "250ms", "1.5m" or "2h"; 0 to 24 h.',
)
export const ClockAdvance = v.strictObject({ advance: Duration })
export const Clock = v.strictObject({
  now: described(DateTime, 'The simulated time.'),
  advancedMs: int(0, undefined, 'How far it was advanced since the last load or reset.'),
  lifecycle: Lifecycle,
  pending: described(
    v.array(v.strictObject({ orderId: Int64, status: v.literal('shipped'), at: DateTime })),
    'The transitions still to come, soonest first.',
  ),
})

export const JournalEntry = v.strictObject({
  time: described(DateTime, 'When the request arrived.'),
  method: v.string(),
  path: described(
    v.string(),
    'The URL path and query as sent; one longer than 1,024 characters is kept cut, ending …[cut: N more characters].',
  ),
  status: exactly(whole(0, 599), {
    type: 'integer',
    description: 'The HTTP status answered; 0 when none was (a network fault dropped the connection, a hang fault never answered).',
    anyOf: [{ const: 0 }, { minimum: 100, maximum: 599 }],
  }),
  duration: described(v.pipe(v.number(), v.minValue(0)), 'How long the simulator took to answer, in ms.'),
  operation: v.nullable(OperationId),
  orderId: nullable(Int64, 'The order a cancel acted on (a valid int64 path id), else null.'),
  sessionRecreated: optional(v.literal(true), 'Present on the request that found its session dropped when idle and got a fresh one.'),
  sessionHeader: optional(
    v.picklist(['X-Sim-Session', 'baggage']),
    "Present on a request that named a session: the header that named it, X-Sim-Session or the W3C baggage header's sim-session member (X-Sim-Session wins when both are sent).",
  ),
  forwarded: optional(v.literal(true), 'Present on a request forwarded to the proxy target (--proxy); status is what came back.'),
})

export const FaultKind = v.picklist(['status', 'network', 'hang', 'slow-body', 'malformed-json'])
const faultStatus = exactly(v.picklist([500, 502, 503, 504]), { type: 'integer', enum: [500, 502, 503, 504] })
const faultFields = {
  operation: OperationId,
  kind: FaultKind,
  retryAfter: optional(int(0)),
  durationMs: optional(int(0, 600_000)),
  times: optional(int(1)),
  probability: optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
}
export const FaultInput = described(
  v.strictObject({
    ...faultFields,
    orderId: optional(
      v.union([Int64, v.pipe(v.string(), v.regex(/^[+-]?[0-9]+$/))]),
      'cancelOrder only: the requests that act on this order.',
    ),
    status: optional(described(faultStatus, 'For kind status (default 500).')),
    retryAfter: optional(int(0, undefined, 'For status 503: seconds in Retry-After (default 1).')),
    durationMs: optional(int(0, 600_000, 'For slow-body and hang.')),
    times: optional(int(1, undefined, 'Fail this many times, then behave again.')),
  }),
  'What a fault does and when. At most one of times and probability (neither: every time).',
)
export const Fault = described(
  v.strictObject({
    ...faultFields,
    id: int(1),
    remaining: nullable(int(1), 'How many more times it fires; null: no limit.'),
    orderId: optional(
      v.union([Int64, v.pipe(v.string(), v.regex(/^-?(0|[1-9][0-9]*)$/))]),
      'As it was given: a JSON integer, or a decimal string in canonical form.',
    ),
    status: optional(faultStatus),
  }),
  'A fault in force: the fields it was given, its id, and how many more times it fires.',
)

export const LatencyRange = v.strictObject({ min: int(0, 60_000), max: int(0, 60_000) })
const byOperation = <T extends v.GenericSchema>(schema: T) =>
  Object.fromEntries(['default', ...OPERATION_IDS].map((name) => [name, v.optional(schema)])) as Record<
    'default' | (typeof OPERATION_IDS)[number],
    v.OptionalSchema<T, undefined>
  >
export const Latency = nullable(
  v.strictObject(byOperation(LatencyRange)),
  'Ranges in ms by operation, default for the others; null for none.',
)
export const LatencyValue = described(
  v.union([int(0, 60_000), v.pipe(v.string(), v.regex(/^\s*[0-9]+(-[0-9]+)?\s*$/)), LatencyRange]),
  '50, "50", "50-400" or { "min": 50, "max": 400 }, in ms (at most 60,000).',
)
export const LatencyInput = described(
  v.union([v.null(), LatencyValue, v.pipe(v.strictObject(byOperation(LatencyValue)), v.metadata({ not: { required: ['min', 'max'] } }))]),
  'One latency for every operation, per operation { default, listOrders, cancelOrder, getPetById }, or null for none.',
)

export const RateLimit = nullable(
  v.strictObject({ limit: int(1), windowSeconds: int(1) }),
  'At most limit requests per API key in each window; null for none.',
)
export const RateLimitInput = described(
  v.union([slashed('^\\s*[0-9]+/[0-9]+(s|m|h)?\\s*$'), RateLimit]),
  '"100/60s" (s, m or h), { "limit": 100, "windowSeconds": 60 }, or null for none.',
)

export const Session = v.strictObject({
  id: SessionId,
  scenario: described(v.string(), 'The scenario loaded in it.'),
  created: DateTime,
  lastUsed: DateTime,
  requests: int(0, undefined, 'How many requests its journal holds.'),
  recreated: exactly(v.nullable(v.picklist(['expired'])), {
    description: 'Why a session with this id had been dropped before this one was made afresh, or null.',
    enum: ['expired', null],
  }),
})

const outcomeFields = {
  id: described(v.string(), '<operationId>.<status>, then .<code> for an Error answer, then .empty for an empty list.'),
  operation: OperationId,
  status: exactly(whole(0, 599), { type: 'integer', minimum: 0, maximum: 599 }),
  code: nullable(v.string(), "The Error body's code (for a provoked answer that has none: the fault's kind); null for a success."),
  count: int(0),
}
export const ProvokedCount = v.strictObject({
  ...outcomeFields,
  control: described(v.picklist(['fault', 'latency', 'prefer', 'rate-limit']), 'The control that provoked it.'),
})
export const DeprecatedCalls = v.strictObject({
  operation: OperationId,
  method: v.string(),
  path: v.string(),
  calls: int(0),
  sunset: described(DateTime, 'The sunset date the simulator announces for it.'),
})
export const RecipeStep = described(
  v.union([
    v.strictObject({
      admin: v.strictObject({
        method: v.picklist(['GET', 'POST', 'PATCH', 'PUT', 'DELETE']),
        path: described(slashed('^/__sim'), 'Under /__sim.'),
        body: optional(v.unknown(), 'The JSON body, when the call takes one.'),
      }),
    }),
    v.strictObject({
      request: v.strictObject({
        method: v.picklist(['GET', 'DELETE']),
        path: described(v.string(), "The whole path, the simulator's API base path included: /v1/store/orders/1."),
        headers: optional(v.record(v.string(), v.string())),
      }),
    }),
  ]),
  'An admin call to make, or the API request that gives the outcome.',
)
export const Recipe = described(
  v.strictObject({
    text: described(v.string(), 'One line for a person.'),
    steps: described(v.array(RecipeStep), 'In order: admin calls, then the one API request.'),
  }),
  'How to provoke the outcome on a fresh session of the default server (docs/coverage.md).',
)
export const CoveredOutcome = v.strictObject({
  ...outcomeFields,
  // Optional: a coverage file of an older version has none, and still merges; every answer of this version has one.
  recipe: optional(Recipe, 'Always in an answer of this version; absent in a coverage file an older version wrote.'),
  tests: optional(v.array(v.string()), 'Only in what petstore-sim coverage merges (--json): the names of the tests that saw it.'),
})
/** A test's full name as coverage keeps it: no control character, at most 200 characters (a longer one was cut, ending in …). */
const TestName = v.pipe(
  v.string(),
  v.minLength(1, 'a test name is empty'),
  v.maxLength(MAX_TEST_NAME, `a test name has more than ${MAX_TEST_NAME} characters`),
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
  v.regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, 'a test name holds a control character'),
)
export const TestOutcomes = v.strictObject({
  name: described(TestName, "The test's full name: its file and titles, as the test runner gives them."),
  outcomes: described(v.array(v.string()), "The ids of the documented outcomes its requests got, in the document's order."),
})
/** What `sim.coverage()`, GET /__sim/coverage and a coverage file hold: typed, so that a consumer's compiler needs not infer it. */
export const Coverage: v.GenericSchema<{
  outcomes: v.InferOutput<typeof CoveredOutcome>[]
  exercised: number
  total: number
  provoked: v.InferOutput<typeof ProvokedCount>[]
  deprecated: v.InferOutput<typeof DeprecatedCalls>[]
  tests?: v.InferOutput<typeof TestOutcomes>[]
  testsLeftOut?: number
}> = v.strictObject({
  outcomes: described(
    v.array(CoveredOutcome),
    "Every documented outcome, in the OpenAPI document's order; count 0 for those never answered.",
  ),
  exercised: int(0, undefined, 'How many outcomes have a count.'),
  total: int(0, undefined, 'How many outcomes the service documents.'),
  provoked: described(
    v.array(ProvokedCount),
    'What faults, latency, Prefer and the rate limit made of answers, apart from outcomes (a slow answer counts in both).',
  ),
  deprecated: described(v.array(DeprecatedCalls), 'The deprecated operations and how often they were called.'),
  tests: optional(
    v.pipe(v.array(TestOutcomes), v.maxLength(MAX_TESTS, `more than ${MAX_TESTS.toLocaleString('en-US')} tests`)),
    "The tests answered with a documented outcome, once a test runner's entry names the running test; absent otherwise.",
  ),
  testsLeftOut: optional(int(1, undefined), `How many more tests were answered once tests held ${MAX_TESTS}: counted, not named.`),
})
