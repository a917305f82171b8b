// The scenario file, said once: the loader checks a scenario with this schema (parse-scenario.ts), the
// `Scenario` type is its input, and scenarios/scenario.schema.json and the admin document's ScenarioFile
// are made from it (scenario-json-schema.ts, which holds each field's description: a page that loads the
// simulator does not carry them). A new field is one entry of ScenarioSchema below.
// Its pieces, and how their messages are said: field-schemas.ts.
import * as v from 'valibot'
import { B64TOKEN, isBearerToken } from '../bearer-auth.js'
import { type FaultInput, FaultShape, parseFault } from '../controls/faults.js'
import { type LatencyInput, LatencyShape, parseLatencySettings, type LatencySettings } from '../controls/latency.js'
import { parseRateLimit, type RateLimit, RateLimitShape } from '../controls/rate-limit.js'
import { ORDER_STATUSES } from '../glossary.js'
import { LifecycleShape, parseLifecycle, type LifecycleInput } from '../lifecycle/lifecycle-rule.js'
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
    // The reference an editor checks the file with; the simulator does not read it.
    $schema: v.optional(
      v.pipe(
        v.custom<string>(() => true),
        v.metadata({ type: 'string' }),
      ),
    ),
    name: ScenarioName,
    description: v.optional(text, ''),
    apiKeys: v.optional(v.nullable(ApiKeys, defaultKeys), defaultKeys),
    orders: v.optional(Orders),
    generate: v.optional(Generator),
    pets: v.optional(Pets),
    exposeStatus: v.optional(flag),
    afterCancel: v.optional(oneOf(['keep', 'remove'])),
    latency: v.optional(
      readBy<LatencyInput | LatencySettings, LatencyInput | LatencySettings>(
        LatencyShape,
        (value) => {
          parseLatencySettings(value)
          return value as LatencySettings
        },
        asOption,
      ),
    ),
    faults: v.optional(v.array(readBy<FaultInput, FaultInput>(FaultShape, parseFault, asItem), mustBe('an array'))),
    rateLimit: v.optional(readBy<string | RateLimit, RateLimit>(RateLimitShape, parseRateLimit, asOption)),
    lifecycle: v.optional(readBy<LifecycleInput, LifecycleInput>(LifecycleShape, readLifecycle, asField)),
    routes: v.optional(RoutesSchema),
    deprecation: v.optional(
      record({ deprecatedAt: v.optional(dateTime('2027-01-01T00:00:00Z')), sunsetAt: v.optional(dateTime('2027-01-01T00:00:00Z')) }),
    ),
  }),
  // The reference is for editors: a checked scenario does not carry it.
  v.transform(({ $schema: _, ...scenario }) => scenario),
)

/** The parts scenarios/scenario.schema.json names under $defs. */
export const SCENARIO_PARTS = { int64: ExactInt64, order: Order, generator: Generator }
