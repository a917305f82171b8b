// scenarios/scenario.schema.json, made from the schema the loader checks with (scenario-schema.ts), with
// what only a reader of the file needs: a description for each field. The build writes the file (scripts/build-admin-document.mjs);
// scenario-json-schema.test.ts keeps the committed one in step. Only Node loads this module.
import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema'
import type * as v from 'valibot'
import { LatencyValue } from '../controls/latency.js'
import { DurationShape } from '../lifecycle/duration.js'
import type { Scenario } from './scenario.js'
import { SCENARIO_PARTS, ScenarioSchema } from './scenario-schema.js'

type Json = Record<string, unknown>

/**
 * How the simulator's valibot schemas become JSON Schema (this file's and the admin document's):
 * the converter cannot read a check, a transform or a custom type, and the keywords beside them in
 * their pipe (`v.metadata`) say them; a pipe is read from its last schema on.
 */
export const CONVERSION: ConversionConfig = {
  target: 'draft-2020-12',
  typeMode: 'output',
  ignoreActions: ['check', 'raw_check', 'transform', 'raw_transform'],
  overrideSchema: ({ valibotSchema }) => (valibotSchema.type === 'custom' ? {} : undefined),
}

const definitions = { ...SCENARIO_PARTS, latencyValue: LatencyValue, duration: DurationShape }

/** What the file says of each field besides its shape. */
const DESCRIPTIONS: Partial<Record<keyof Scenario, string>> = {
  name: 'Lower-case letters, digits and dashes; what --scenario and reset() take.',
  description: 'One line for people. Default: empty.',
  apiKeys: 'The bearer keys this scenario accepts. An empty list accepts none (every call gives 401). Default: ["petstore-test-key"].',
  orders: 'Explicit orders, listed first and in this order. Ids must be unique.',
  pets: 'Opaque pet records for the deprecated GET /pets/{petId}, keyed by petId (compared as an exact string).',
  exposeStatus: "Send each order's status in the list. Default false. The simulator's exposeStatus option overrides it.",
  afterCancel: 'keep (default): a cancelled order stays in the list; remove: it leaves the list and a second cancel gives 404.',
  latency: 'Delay answers, in ms: 50, "50-400", or per operation. A simulator option overrides it.',
  faults: 'Faults while this scenario is loaded.',
  rateLimit: 'Per API key, such as "100/60s". A simulator option overrides it.',
  lifecycle:
    'Pending orders ship on their own (complete becomes true) this long after they are loaded, reset or added: {"shipAfter": "30s"}, or a delay drawn per order from the seed, {"min": "10s", "max": "60s"}. Durations: a number of ms, or <number><ms|s|m|h>, 0 to 24 h. A simulator option overrides it.',
  routes:
    'Answers for operations the spec does not show, such as {"method": "GET", "path": "/store/inventory", "status": 200, "body": {"available": 3}}. The path is under the API base, without it (under the base /v1, "/v1/store/orders" is refused: it would answer at /v1/v1/store/orders); a {name} segment matches any one segment; a literal segment beats a {name}, then a route naming more "query" parameters wins. A valid key is required unless "auth" is false. A route for one of the spec\'s operations (GET /store/orders, DELETE /store/orders/{orderId}, GET /pets/{petId}) is refused. At most 1,000 routes, each body at most 1 MiB as JSON.',
  deprecation:
    "The dates GET /pets/{petId} announces in its Deprecation (RFC 9745) and Sunset (RFC 8594) headers, each an RFC 3339 date-time with a time zone. Each defaults to the simulator's own (2026-01-01T00:00:00Z, 2027-01-01T00:00:00Z); the simulator's deprecation option (--deprecated-at, --sunset-at) overrides each date.",
}

const convert = (schema: v.GenericSchema): Json => toJsonSchema(schema, { ...CONVERSION, definitions }) as Json
const described = (schema: unknown, description: string | undefined) =>
  description === undefined ? schema : { ...(schema as Json), description }

/** The JSON Schema of a scenario file, as the package ships it at scenarios/scenario.schema.json. */
export function scenarioJsonSchema(): Json {
  const { $schema, properties, $defs, ...schema } = convert(ScenarioSchema) as Json & { properties: Json; $defs: Record<string, Json> }
  const { order, generator } = $defs as { order: { properties: Json }; generator: { properties: Json } }
  order.properties['status'] = described(order.properties['status'], 'Default: pending.')
  generator.properties['statuses'] = described(generator.properties['statuses'], 'Relative weight of each status; at least one above 0.')
  return {
    $schema,
    $id: 'https://petstore-orders-simulator.local/scenario.schema.json',
    title: 'Petstore Orders Simulator scenario',
    description:
      'The initial state of a simulator: its name, the API keys it accepts, its orders (explicit and/or generated) and its pets. The simulator checks every file against these rules and refuses the whole file, naming the field, when one fails.',
    ...schema,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, json]) => [name, described(json, DESCRIPTIONS[name as keyof Scenario])]),
    ),
    $defs: {
      ...$defs,
      duration: described(
        $defs['duration'],
        'A duration from 0 to 24 hours: milliseconds, or a string such as "30s", "250ms", "10m", "2h".',
      ),
      generator: described(generator, 'Realistic orders generated with faker. The same seed always gives the same orders.'),
    },
  }
}

/** The file's text: two-space JSON with a final newline. */
export const scenarioJsonSchemaText = (): string => `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`
