import type { SimpleFaker } from '@faker-js/faker'
import type { OrderGeneration } from '../../core/scenario/order-generation.js'
import { type GenerateOrders, orderGenerator } from '../../core/scenario/order-generator.js'
import { moduleLoader } from './require-msw.js'

type FakerModule = { SimpleFaker: typeof SimpleFaker }

/**
 * The generator of Node.js builds, made the first time a scenario needs it,
 * synchronously where the runtime can require an ES module (Node.js 20.19+,
 * Bun, Deno, the Jest preset), so `createSimulator` returns at once and a test
 * file whose scenarios list their orders never loads faker. Where it cannot
 * (Jest's ES module mode before Node.js 24.9), `load()` imports faker, as a
 * reset awaits it.
 */
export function requiredGeneration(): OrderGeneration {
  let generate: GenerateOrders | undefined
  let required = false
  const loaded = () => {
    if (generate === undefined && !required) {
      required = true
      try {
        const faker = moduleLoader()?.('@faker-js/faker') as FakerModule | undefined
        if (faker?.SimpleFaker !== undefined) generate = orderGenerator(faker.SimpleFaker)
      } catch {
        // Not loadable in one step here: load() imports it.
      }
    }
    return generate
  }
  return {
    loaded,
    async load() {
      // Our module that imports SimpleFaker by name, not faker's whole index: a bundler keeps only what it needs.
      generate = loaded() ?? (await import('../../core/scenario/generate-orders.js')).generateOrders
      return generate
    },
  }
}
