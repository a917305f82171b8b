import type { GenerateOrders } from './order-generator.js'
import { int64Key } from '../int64.js'
import type { OrderRecord } from '../state/order-store.js'
import type { CheckedScenario } from './parse-scenario.js'
import { MAX_ORDERS } from './scenario-limits.js'
import { ScenarioError } from './scenario-error.js'
import { hasSeededOrders, seededOrders } from './seeded-orders.js'

/** The id of a scenario's first generated order: its generator's `firstId`, else one past its largest explicit id, else 1. */
export function generatedFirstId(scenario: CheckedScenario): bigint {
  const given = int64Key(scenario.generate?.firstId)
  if (given !== null) return BigInt(given)
  return (scenario.orders ?? []).reduce<bigint>((largest, order) => (BigInt(order.id) > largest ? BigInt(order.id) : largest), 0n) + 1n
}

/** Whether making a scenario's orders at this seed takes the generator (faker): not when they were made ahead of time. */
export function needsGenerator(scenario: CheckedScenario, seed: number | undefined): boolean {
  const { generate } = scenario
  return generate !== undefined && !hasSeededOrders(generate, seed ?? generate.seed, generatedFirstId(scenario))
}

/**
 * The initial orders of a scenario: its explicit records, then its generated
 * ones. `seed` replaces the generator's own seed; the same scenario and seed
 * always give the same orders. The generated ones are copied from those made
 * ahead of time (`seededOrders`), else made by `generate` (faker's code,
 * loaded only for a scenario that needs it).
 * @note Throws a `ScenarioError` when a generated id collides with an explicit one.
 */
export function materializeOrders(
  scenario: CheckedScenario,
  source: string,
  seed: number | undefined,
  generate: GenerateOrders,
): OrderRecord[] {
  const explicit: OrderRecord[] = (scenario.orders ?? []).map((order) => ({
    id: String(order.id),
    petId: order.petId === undefined ? null : String(order.petId),
    quantity: order.quantity ?? null,
    shipDate: order.shipDate ?? null,
    complete: order.complete ?? null,
    status: order.status,
  }))
  if (scenario.generate === undefined) {
    return explicit
  }
  const firstId = generatedFirstId(scenario)
  const generatorSeed = seed ?? scenario.generate.seed
  const generated = seededOrders(scenario.generate, generatorSeed, firstId) ?? generate(scenario.generate, generatorSeed, firstId, source)
  if (explicit.length + generated.length > MAX_ORDERS) {
    throw new ScenarioError(
      source,
      `the scenario would hold ${explicit.length + generated.length} orders; the most a scenario may hold is ${MAX_ORDERS}`,
      'generate.count',
    )
  }
  const explicitIds = new Map(explicit.map((order, index) => [order.id, index]))
  for (const order of generated) {
    const index = explicitIds.get(order.id)
    if (index !== undefined) {
      throw new ScenarioError(
        source,
        `generated order id ${order.id} collides with orders[${index}].id; set generate.firstId past the explicit ids`,
        'generate.firstId',
      )
    }
  }
  // Most generated scenarios have no explicit orders: their 10,000 orders are not copied into a second array.
  return explicit.length === 0 ? generated : [...explicit, ...generated]
}
