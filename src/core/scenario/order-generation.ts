import type { GenerateOrders } from './order-generator.js'
import { needsGenerator } from './materialize-orders.js'
import type { CheckedScenario } from './parse-scenario.js'

/**
 * Where a simulator gets the code that generates orders (faker's), made only
 * for the first scenario that generates orders not made ahead of time: in
 * Node at once when needed (`requiredGeneration`), in a page by fetching its
 * chunk, so that neither loads faker for scenarios that list their orders.
 */
export interface OrderGeneration {
  /** The generator, or undefined while it is not loaded (where it can be, it is loaded now). */
  loaded(): GenerateOrders | undefined
  /** Loads it once; later calls share that load. */
  load(): Promise<GenerateOrders>
}

/**
 * Thrown when a scenario's orders are made before the generator is loaded: a
 * caller that loads it lazily (the standalone server) loads it and tries again,
 * so a start reads its scenario once whether or not it generates.
 */
export class GeneratorNotLoaded extends Error {
  override name = 'GeneratorNotLoaded'
}

/**
 * `make()` at once or, when the scenario it loads generates orders and the
 * generator is not loaded (`GeneratorNotLoaded`), again once it is: a maker
 * that loads faker lazily reads its scenario once when faker is not needed.
 */
export function withGenerator<T>(generation: OrderGeneration, make: () => T): T | Promise<Awaited<T>> {
  try {
    return make()
  } catch (error) {
    if (!(error instanceof GeneratorNotLoaded)) throw error
    return generation.load().then(make) as Promise<Awaited<T>>
  }
}

/** A generator loaded by `load` the first time a scenario needs it. */
export function lazyGeneration(load: () => Promise<GenerateOrders>): OrderGeneration {
  let generate: GenerateOrders | undefined
  let loading: Promise<GenerateOrders> | undefined
  return {
    loaded: () => generate,
    load() {
      loading ??= load().then(
        (loadedGenerate) => (generate = loadedGenerate),
        (error: unknown) => {
          // A failed load (a network blip fetching the chunk) may be tried again.
          loading = undefined
          throw error
        },
      )
      return loading
    },
  }
}

/** What a scenario needs before its orders can be made at `seed`: nothing, or the generator's load. */
export function generatorNeeded(
  generation: OrderGeneration,
  scenario: CheckedScenario,
  seed: number | undefined,
): Promise<GenerateOrders> | undefined {
  // Whether it is needed first: asking whether it is loaded may load it (generationOnFirstUse).
  return !needsGenerator(scenario, seed) || generation.loaded() !== undefined ? undefined : generation.load()
}
