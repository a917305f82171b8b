import { BUILTIN_SCENARIOS } from './builtin-scenarios.js'
import { generateOrders } from './generate-orders.js'
import { generatedFirstId } from './materialize-orders.js'
import { parseScenario } from './parse-scenario.js'
import { generatorKey, type SeededOrder } from './seeded-orders.js'

/**
 * What seeded-orders.json must hold, made with faker: the orders of every
 * built-in scenario that generates, at its own seed, one order per line.
 * Written by `npm run build:seeded-orders`, checked by seeded-orders.test.ts.
 */
export function seededOrderTable(): string {
  const entries = new Map<string, string[]>()
  for (const [name, raw] of Object.entries(BUILTIN_SCENARIOS)) {
    const scenario = parseScenario(raw, name)
    const generator = scenario.generate
    if (generator === undefined) continue
    const firstId = generatedFirstId(scenario)
    const orders = generateOrders(generator, generator.seed, firstId, name)
    const rows = orders.map(({ petId, quantity, shipDate, status }) => {
      const row: SeededOrder = [Number(petId), quantity ?? 0, Date.parse(shipDate ?? ''), status[0] as SeededOrder[3]]
      return JSON.stringify(row)
    })
    entries.set(generatorKey(generator, generator.seed, firstId), rows)
  }
  const body = [...entries].map(([key, rows]) => `  ${JSON.stringify(key)}: [\n    ${rows.join(',\n    ')}\n  ]`)
  return `{\n${body.join(',\n')}\n}\n`
}
