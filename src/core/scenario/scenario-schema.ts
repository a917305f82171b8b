// The scenario file, said once: the loader checks a scenario with this schema (parse-scenario.ts), the
// `Scenario` type is its input, and scenarios/scenario.schema.json and the admin document's ScenarioFile
// are made from it (scenario-json-schema.ts, which adds the descriptions: a page that loads the
// simulator does not carry them). A new field is one entry of ScenarioSchema below.
// Its pieces, and how their messages are said: field-schemas.ts.
import * as v from 'valibot'
import { B64TOKEN, isBearerToken } from '../bearer-auth.js'
import { type FaultInput, parseFault } from '../controls/faults.js'
import { type LatencyInput, parseLatencySettings, type LatencySettings } from '../controls/latency.js'
import { parseRateLimit, type RateLimit } from '../controls/rate-limit.js'
import { ORDER_STATUSES } from '../glossary.js'
import { parseLifecycle, type LifecycleInput } from '../lifecycle/lifecycle-rule.js'
import { RoutesSchema } from '../routes/route-schema.js'
import { ValidationError } from '../validation-error.js'
import {
  asField,
  asItem,
  asOption,
  dateTime,
  ExactInt64,
  flag,
  integer,
  mustBe,
  objectOr,
  oneOf,
  Pets,
  readBy,
  record,
  text,
} from './field-schemas.js'
import { MAX_ORDERS, SCENARIO_NAME } from './scenario-limits.js'

/** The key a scenario accepts when it does not list its own; every built-in but bad-key lists it. */
const DEFAULT_API_KEY = 'petstore-test-key'

const Order = v.pipe(
  record({
    id: ExactInt64,
    petId: v.optional(ExactInt64),
    quantity: v.optional(integer()),
    shipDate: v.optional(dateTime('2026-03-01T12:00:00Z')),
    complete: v.optional(flag),
    status: v.optional(oneOf(ORDER_STATUSES), 'pending'),
  }),
  // The order a record has always had: id and status first.
  v.transform(({ id, status, ...rest }) => ({ id, status, ...rest })),
)

/** Explicit orders: at most MAX_ORDERS, each id once. */
const Orders = v.pipe(
  v.custom<v.InferInput<typeof Order>[]>(Array.isArray, mustBe('an array')),
  v.check(
    (orders) => orders.length <= MAX_ORDERS,
    (issue) => ` holds ${(issue.input as unknown[]).length} records; the most a scenario may hold is ${MAX_ORDERS}`,
  ),
  v.array(Order),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    const seen = new Map<string, number>()
    for (const [index, { id }] of dataset.value.entries()) {
      const first = seen.get(String(id))
      if (first !== undefined) {
        const at: v.IssuePathItem = { type: 'array', origin: 'value', input: dataset.value, key: index, value: dataset.value[index] }
        return addIssue({
          message: ` ${id} duplicates orders[${first}].id`,
          path: [at, { type: 'object', origin: 'value', input: {}, key: 'id', value: id }],
        })
      }
      seen.set(String(id), index)
    }
  }),
  v.metadata({ maxItems: MAX_ORDERS }),
)

const weight = v.pipe(
  v.number(mustBe('a weight of 0 or more')),
  v.check((value: number) => Number.isFinite(value) && value >= 0, mustBe('a weight of 0 or more')),
  v.metadata({ minimum: 0 }),
)
const orderCount = integer(0, MAX_ORDERS)
const Generator = record({
  count: objectOr(
    v.pipe(
      record({ min: orderCount, max: orderCount }, mustBe('an integer')),
      v.check(
        ({ min, max }) => min <= max,
        // Whole: the generator is the scenario's own field.
        ({ input }) => `generate.count.min (${input.min}) must not be greater than generate.count.max (${input.max})`,
      ),
    ),
    orderCount,
  ),
  seed: integer(0),
  statuses: v.pipe(
    record({ pending: v.optional(weight), shipped: v.optional(weight), cancelled: v.optional(weight) }),
    v.check((weights) => Object.values(weights).some((each) => each > 0), ' must give at least one status a weight above 0'),
    v.metadata({ minProperties: 1 }),
  ),
  firstId: v.optional(ExactInt64),
  referenceDate: v.optional(dateTime()),
})

function readLifecycle(value: unknown): LifecycleInput {
  parseLifecycle(value)
  if (value === null) throw new ValidationError('lifecycle', 'lifecycle must be an object; leave it out for none')
  return value as LifecycleInput
}

const ApiKeys = v.array(
  v.pipe(
    text,
    v.check(isBearerToken, mustBe('usable as a bearer token (letters, digits and -._~+/ followed by optional =)')),
    v.metadata({ pattern: B64TOKEN.source }),
  ),
  mustBe('an array of strings'),
)
/** The keys of a scenario that lists none, or lists null. */
const defaultKeys = () => [DEFAULT_API_KEY]

/** A scenario's name: also its file's name in the scenarios folder (the admin document's ScenarioName). */
export const ScenarioName = v.pipe(
  text,
  v.check(
    (name: string) => SCENARIO_NAME.test(name),
    mustBe('1 to 64 lower-case letters, digits and dashes, starting with a letter or digit'),
  ),
  v.metadata({ pattern: SCENARIO_NAME.source }),
)

/** A scenario file: the initial state of a simulator. */
export const ScenarioSchema = v.pipe(
  record({
    /** The JSON Schema an editor checks the file with; the simulator does not read it. */
    $schema: v.optional(
      v.pipe(
        v.custom<string>(() => true),
        v.metadata({ type: 'string' }),
      ),
    ),
    /** Lower-case letters, digits and dashes. */
    name: ScenarioName,
    /** One line for people. Default: empty. */
    description: v.optional(text, ''),
    /** The bearer keys this scenario accepts. An empty list accepts none. Default: `["petstore-test-key"]`. */
    apiKeys: v.optional(v.nullable(ApiKeys, defaultKeys), defaultKeys),
    /** Explicit order records, listed first and in this order. */
    orders: v.optional(Orders),
    /** Generated orders, listed after the explicit ones. */
    generate: v.optional(Generator),
    /** Opaque pet records for the deprecated `GET /pets/{petId}`, keyed by petId. */
    pets: v.optional(Pets),
    /** Send each order's status in the list (default false). A simulator option overrides it. */
    exposeStatus: v.optional(flag),
    /** Keep cancelled orders in the list or remove them (default keep). A simulator option overrides it. */
    afterCancel: v.optional(oneOf(['keep', 'remove'])),
    /** Delay answers: `50`, `"50-400"`, or per operation. A simulator option overrides it. */
    latency: v.optional(
      readBy<LatencyInput | LatencySettings, LatencyInput | LatencySettings>((value) => {
        parseLatencySettings(value)
        return value as LatencySettings
      }, asOption),
    ),
    /** Faults present while this scenario is loaded (besides the simulator's own). */
    faults: v.optional(v.array(readBy<FaultInput, FaultInput>(parseFault, asItem), mustBe('an array'))),
    /** Per API key, e.g. `"100/60s"`. A simulator option overrides it. */
    rateLimit: v.optional(readBy<string | RateLimit, RateLimit>(parseRateLimit, asOption)),
    /**
     * Pending orders ship on their own this long after they are loaded, reset
     * or added (`complete` becomes true): `{ "shipAfter": "30s" }`, or a delay
     * drawn per order from the seed, `{ "min": "10s", "max": "60s" }`. A
     * simulator option overrides it. Default: none.
     */
    lifecycle: v.optional(readBy<LifecycleInput, LifecycleInput>(readLifecycle, asField)),
    /**
     * Answers for operations the spec does not show (`GET /store/inventory`):
     * method, path under the base (`{name}` matches one segment), status,
     * headers, body; a key is required unless `auth` is false. Never one of
     * the spec's operations. Default: none.
     */
    routes: v.optional(RoutesSchema),
    /**
     * The dates `GET /pets/{petId}` announces (RFC 3339 date-times), each one
     * defaulting to the simulator's own. A simulator option overrides each date.
     */
    deprecation: v.optional(
      record({ deprecatedAt: v.optional(dateTime('2027-01-01T00:00:00Z')), sunsetAt: v.optional(dateTime('2027-01-01T00:00:00Z')) }),
    ),
  }),
  // The reference is for editors: a checked scenario does not carry it.
  v.transform(({ $schema: _, ...scenario }) => scenario),
)

/** The parts scenarios/scenario.schema.json names under $defs. */
export const SCENARIO_PARTS = { int64: ExactInt64, order: Order, generator: Generator }
