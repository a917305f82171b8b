import { BUILTIN_SCENARIOS } from '../scenario/builtin-scenarios.js'
import type { CheckedScenario } from '../scenario/parse-scenario.js'
import type { Scenario } from '../scenario/scenario.js'

type Resolved = { scenario: CheckedScenario; source: string }

/** The value of `key` in `map` (a Map or a WeakMap), made by `make` the first time. */
export function remembered<K, V>(map: { get(key: K): V | undefined; set(key: K, value: V): unknown }, key: K, make: () => V): V {
  const known = map.get(key)
  if (known !== undefined) return known
  const made = make()
  map.set(key, made)
  return made
}

/**
 * One simulator's memory of the scenarios it loaded: a built-in one is
 * checked once, and a checked scenario made ready once per seed (its orders,
 * keys and settings, which nothing changes afterwards). A reset to one then
 * costs a copy of its orders: `await sim.reset('pending')` before every test.
 */
export function scenarioCache<Active>(
  resolve: (input: string | Scenario) => Resolved,
  activate: (scenario: CheckedScenario, source: string, seed: number | undefined) => Active,
): { resolve: typeof resolve; activate: typeof activate } {
  const builtins = new Map<string, Resolved>()
  const activated = new WeakMap<CheckedScenario, Map<string, Active>>()
  return {
    resolve(input) {
      if (typeof input !== 'string' || !Object.hasOwn(BUILTIN_SCENARIOS, input)) return resolve(input)
      return remembered(builtins, input, () => resolve(input))
    },
    activate(scenario, source, seed) {
      const bySeed = remembered(activated, scenario, () => new Map<string, Active>())
      return remembered(bySeed, `${source}\0${seed ?? ''}`, () => activate(scenario, source, seed))
    },
  }
}
