import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createSimulator } from '../src/index.js'
import { withUnhandledStrategy } from '../src/transports/msw/unhandled-requests.js'
import { createStoryLoader } from '../src/transports/storybook/story-loader.js'

// The loader as Storybook runs it, over msw in Node instead of a service worker.
const sim = createSimulator()
const server = setupServer(...sim.handlers)
const loader = createStoryLoader(async () => sim)
const ORDERS = 'https://api.petstore.example/v1/store/orders'
const auth = { Authorization: 'Bearer petstore-test-key' }

beforeAll(() => server.listen(withUnhandledStrategy(server, {}, 'error')))
afterAll(() => server.close())

const listStatus = async () => (await fetch(ORDERS, { headers: auth })).status
const cancel = async (id: number) => (await fetch(`${ORDERS}/${id}`, { method: 'DELETE', headers: auth })).status

test('each render of a story starts from its declared state, whatever the render before it did', async () => {
  const pending = { parameters: { petstoreSim: { scenario: 'pending' } } }
  await loader(pending)
  expect(await cancel(1)).toBe(204)
  expect(sim.order(1)?.status).toBe('cancelled')

  // "Remount": the same story again gets order 1 back as pending, and an empty journal.
  const { petstoreSim } = await loader(pending)
  expect(petstoreSim.order(1)?.status).toBe('pending')
  expect(petstoreSim.requests()).toEqual([])
  expect(await cancel(1)).toBe(204)
})

test("a story's latency, faults and seed do not outlive it", async () => {
  await loader({
    parameters: {
      petstoreSim: { scenario: 'default', seed: 7, latency: 40, faults: [{ operation: 'listOrders', kind: 'status', status: 503 }] },
    },
  })
  expect(sim.latency()).not.toBeNull()
  expect(await listStatus()).toBe(503)
  const seeded = sim.orders()

  await loader({ parameters: { petstoreSim: { scenario: 'default' } } })
  expect(sim.latency()).toBeNull()
  expect(sim.faults()).toEqual([])
  expect(await listStatus()).toBe(200)
  expect(sim.orders()).not.toEqual(seeded)
  // The same as a simulator that never saw the seeded story.
  expect(sim.orders()).toEqual(createSimulator({ scenario: 'default' }).orders())
})

test('a bad parameter fails the render and leaves the state as it was', async () => {
  await loader({ parameters: { petstoreSim: { scenario: 'shipped' } } })
  await expect(loader({ parameters: { petstoreSim: { scenario: 'nope' } } })).rejects.toThrow(
    'parameters.petstoreSim.scenario "nope" is not a built-in scenario; the built-in scenarios are default, pending, shipped, missing, bad-key, flaky-network, slow-cancel.',
  )
  await expect(loader({ parameters: { petstoreSim: { scenario: 'pending', latency: { list: 5 } } } })).rejects.toThrow(
    'parameters.petstoreSim.latency: Unknown latency key "list"',
  )
  expect(sim.scenario().name).toBe('shipped')
  expect(await cancel(1)).toBe(409)
})

test('renders that overlap are applied in the order they began', async () => {
  const first = loader({ parameters: { petstoreSim: { scenario: 'pending' } } })
  const second = loader({ parameters: { petstoreSim: { scenario: 'missing' } } })
  await Promise.all([first, second])
  expect(sim.scenario().name).toBe('missing')
  expect(await cancel(1)).toBe(404)
})
