import { expect, test } from 'vitest'
import { createSimulatorCore } from '../simulator/simulator.js'
import { BUILTIN_SCENARIOS } from './builtin-scenarios.js'
import { generateOrders } from './generate-orders.js'
import { lazyGeneration } from './order-generation.js'

/** A lazy generator that counts its loads and can be made to fail the next one. */
function countedLoads() {
  const seen = { loads: 0, failNext: false }
  const generation = lazyGeneration(async () => {
    seen.loads++
    if (seen.failNext) {
      seen.failNext = false
      throw new Error('the chunk did not arrive')
    }
    return generateOrders
  })
  return { seen, generation }
}

test('a simulator whose scenarios list their orders never loads the generator', async () => {
  const { seen, generation } = countedLoads()
  const sim = createSimulatorCore({ scenario: 'pending' }, { generation })
  await sim.reset('shipped')
  await sim.reset()
  expect(seen.loads).toBe(0)
  expect(sim.orders().map((order) => order.status)).toEqual(['shipped', 'shipped', 'shipped'])
})

test('every built-in scenario, generating ones included, starts and resets without loading the generator', async () => {
  const { seen, generation } = countedLoads()
  const sim = createSimulatorCore({ scenario: 'default' }, { generation })
  for (const name of Object.keys(BUILTIN_SCENARIOS)) await sim.reset(name)
  await sim.reset('default')
  expect(seen.loads).toBe(0)
  // Copied from the orders made ahead of time (seeded-orders.test.ts checks they are faker's).
  expect(sim.orders()).toHaveLength(21)
})

test('a reset to another seed loads the generator once and makes the same orders as an eager one', async () => {
  const { seen, generation } = countedLoads()
  const lazy = createSimulatorCore({ scenario: 'pending' }, { generation })
  const eager = createSimulatorCore(
    { scenario: 'default' },
    { generation: { loaded: () => generateOrders, load: async () => generateOrders } },
  )
  await Promise.all([lazy.reset('default', { seed: 7 }), lazy.reset('default', { seed: 7 })])
  await lazy.reset({ scenario: 'default', seed: 8 })
  expect(seen.loads).toBe(1)
  await lazy.reset({ scenario: 'default', seed: 7 })
  await eager.reset({ seed: 7 })
  expect(lazy.orders()).toEqual(eager.orders())
  expect(lazy.orders().length).toBeGreaterThanOrEqual(12)
})

test('a failed load changes nothing and is tried again by the next reset', async () => {
  const { seen, generation } = countedLoads()
  const sim = createSimulatorCore({ scenario: 'pending' }, { generation })
  seen.failNext = true
  await expect(sim.reset('default', { seed: 7 })).rejects.toThrow('the chunk did not arrive')
  expect(sim.scenario().name).toBe('pending')
  await sim.reset('default', { seed: 7 })
  expect(sim.scenario().name).toBe('default')
  expect(seen.loads).toBe(2)
})

test('a bad scenario is refused at once, before any load', () => {
  const { seen, generation } = countedLoads()
  const sim = createSimulatorCore({ scenario: 'pending' }, { generation })
  expect(() => sim.reset('no-such-scenario')).toThrow(/no-such-scenario/)
  expect(seen.loads).toBe(0)
})
