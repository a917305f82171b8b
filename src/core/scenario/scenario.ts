import type { FaultInput } from '../controls/faults.js'
import type { LatencyInput, LatencySettings } from '../controls/latency.js'
import type { RateLimit } from '../controls/rate-limit.js'
import type { AfterCancel, JsonValue, OrderGenerator, ScenarioOrder } from '../glossary.js'
import type { LifecycleInput } from '../lifecycle/lifecycle-rule.js'

/** A named set of orders, keys and pets: the initial state of a simulator. */
export interface Scenario {
  /** Lower-case letters, digits and dashes. */
  name: string
  /** One line for people. Default: empty. */
  description?: string
  /** The bearer keys this scenario accepts. An empty list accepts none. Default: `["petstore-test-key"]`. */
  apiKeys?: string[]
  /** Explicit order records, listed first and in this order. */
  orders?: ScenarioOrder[]
  /** Generated orders, listed after the explicit ones. */
  generate?: OrderGenerator
  /** Opaque pet records for the deprecated `GET /pets/{petId}`, keyed by petId. */
  pets?: Record<string, JsonValue>
  /** Send each order's status in the list (default false). A simulator option overrides it. */
  exposeStatus?: boolean
  /** Keep cancelled orders in the list or remove them (default keep). A simulator option overrides it. */
  afterCancel?: AfterCancel
  /** Delay answers: `50`, `"50-400"`, or per operation. A simulator option overrides it. */
  latency?: LatencyInput | LatencySettings
  /** Faults present while this scenario is loaded (besides the simulator's own). */
  faults?: FaultInput[]
  /** Per API key, e.g. `"100/60s"`. A simulator option overrides it. */
  rateLimit?: string | RateLimit
  /**
   * Pending orders ship on their own this long after they are loaded, reset
   * or added (`complete` becomes true): `{ "shipAfter": "30s" }`, or a delay
   * drawn per order from the seed, `{ "min": "10s", "max": "60s" }`. A
   * simulator option overrides it. Default: none.
   */
  lifecycle?: LifecycleInput
  /**
   * The dates `GET /pets/{petId}` announces (RFC 3339 date-times), each one
   * defaulting to the simulator's own. A simulator option overrides each date.
   */
  deprecation?: { deprecatedAt?: string; sunsetAt?: string }
}
