import type * as v from 'valibot'
import type { ScenarioSchema } from './scenario-schema.js'

/** A named set of orders, keys and pets: the initial state of a simulator (its fields: scenario-schema.ts). */
export type Scenario = v.InferInput<typeof ScenarioSchema>
