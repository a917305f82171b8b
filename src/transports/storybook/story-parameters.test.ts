import { expect, test } from 'vitest'
import { checkLoaderOptions, storyReset } from './story-parameters.js'

const BUILTINS = 'default, pending, shipped, missing, bad-key, flaky-network, slow-cancel'

test('no petstoreSim parameter gives the default scenario with its own seed', () => {
  const { scenario, seed } = storyReset(undefined)
  expect(scenario.name).toBe('default')
  expect(seed).toBe(20260101)
})

test('a built-in scenario name with controls gives that scenario carrying them', () => {
  const { scenario, seed } = storyReset({
    scenario: 'pending',
    seed: 7,
    latency: 800,
    faults: [{ operation: 'listOrders', kind: 'status', status: 503 }],
  })
  expect(scenario).toMatchObject({ name: 'pending', latency: 800, faults: [{ operation: 'listOrders', kind: 'status', status: 503 }] })
  expect(seed).toBe(7)
})

test('null turns off what the scenario itself sets, and [] its faults', () => {
  const { scenario } = storyReset({ scenario: 'flaky-network', latency: null, faults: [] })
  expect(scenario.latency).toBeUndefined()
  expect(scenario.faults).toEqual([])
})

test('an unknown scenario fails with one message that lists the scenarios', () => {
  expect(() => storyReset({ scenario: 'shiped' })).toThrow(
    new TypeError(
      `Failed to set up the story's simulator: parameters.petstoreSim.scenario "shiped" is not a built-in scenario; the built-in scenarios are ${BUILTINS}.`,
    ),
  )
})

test('a wrong-shaped control names its field under parameters.petstoreSim', () => {
  expect(() => storyReset({ scenario: 'pending', latency: 'fast' })).toThrow(
    /^Failed to set up the story's simulator: parameters\.petstoreSim\.latency must be milliseconds/,
  )
  expect(() => storyReset({ faults: [{ operation: 'cancelOrder', kind: 'explode' }] })).toThrow(
    /parameters\.petstoreSim\.faults\[0\]: "kind" must be one of status, network, hang, slow-body, malformed-json, got "explode"/,
  )
  expect(() => storyReset({ faults: { operation: 'cancelOrder' } })).toThrow(/parameters\.petstoreSim\.faults must be an array/)
  expect(() => storyReset({ rateLimit: 'lots' })).toThrow(/parameters\.petstoreSim\.rateLimit: A rate limit is/)
  expect(() => storyReset({ lifecycle: { shipAfter: 'soon' } })).toThrow(/parameters\.petstoreSim\.lifecycle\.shipAfter must be a duration/)
  expect(() => storyReset({ seed: -1 })).toThrow(/parameters\.petstoreSim\.seed must be a whole number of 0 or more, got number -1/)
})

test('a misspelled field or a parameter that is no object is named', () => {
  expect(() => storyReset({ scenario: 'pending', latancy: 5 })).toThrow(
    /parameters\.petstoreSim\.latancy is not a field; the fields are scenario, seed, latency, faults, rateLimit, lifecycle/,
  )
  expect(() => storyReset('pending')).toThrow(
    /parameters\.petstoreSim must be an object such as \{ scenario: 'pending' \}, got string "pending"/,
  )
  expect(() => storyReset({ scenario: 3 })).toThrow(
    /parameters\.petstoreSim\.scenario must be a scenario name or a scenario object, got number 3/,
  )
})

test('an inline scenario object is checked, its errors named under parameters.petstoreSim.scenario', () => {
  const { scenario } = storyReset({ scenario: { name: 'two', orders: [{ id: 1 }, { id: 2, status: 'shipped' }] } })
  expect(scenario.orders).toHaveLength(2)
  expect(() => storyReset({ scenario: { name: 'bad', orders: [{ id: 'one' }] } })).toThrow(
    /parameters\.petstoreSim\.scenario\.orders\[0\]\.id/,
  )
})

test('the petstoreScenario and petstoreLatency args win over the parameters', () => {
  const { scenario } = storyReset({ scenario: 'pending', latency: 10 }, { petstoreScenario: 'shipped', petstoreLatency: 300 })
  expect(scenario).toMatchObject({ name: 'shipped', latency: 300 })
  expect(() => storyReset({}, { petstoreScenario: 'nope' })).toThrow(
    /args\.petstoreScenario "nope" is not a built-in scenario; the built-in scenarios are/,
  )
  expect(() => storyReset({}, { petstoreLatency: 'slow' })).toThrow(/args\.petstoreLatency must be a whole number of milliseconds/)
})

test("petstoreSim()'s options refuse what a story declares, saying where it goes", () => {
  expect(() => checkLoaderOptions({ exposeStatus: true, latency: 50 })).toThrow(
    new TypeError(
      'Failed to configure petstoreSim(): "latency" belongs in parameters.petstoreSim (in preview.ts for every story), not in its options.',
    ),
  )
  expect(() => checkLoaderOptions({ exposeStatus: true, baseUrl: '/v1' })).not.toThrow()
  expect(() => checkLoaderOptions({ persist: 'session' })).toThrow(/persist is not for stories/)
})
