// The cancel guarantee in process: msw's setupServer patches fetch for the
// whole file, so these live apart from the HTTP ones (concurrency.test.ts).
import { expect, test } from 'vitest'
import { API, KEY, useInProcessSimulator } from './support/harness.js'

const simulate = useInProcessSimulator()
const auth = { Authorization: `Bearer ${KEY}` }

test('50 DELETEs of one pending order at once in process (setupServer): exactly one 204, though the order model writes asynchronously', async () => {
  const { sim } = simulate({ scenario: 'pending' })
  const statuses = await Promise.all(
    Array.from({ length: 50 }, async () => (await fetch(`${API}/store/orders/2`, { method: 'DELETE', headers: auth })).status),
  )
  expect(statuses.filter((status) => status === 204)).toHaveLength(1)
  expect(statuses.filter((status) => status === 409)).toHaveLength(49)
  expect(sim.orders().find((order) => order.id === 2)?.status).toBe('cancelled')
})

test('in process, cancels racing with resets see either the old or the new scenario, never a half-filled one', async () => {
  const { sim } = simulate({ scenario: 'pending', exposeStatus: true })
  const lists: unknown[] = []
  const work: Promise<unknown>[] = []
  for (let round = 0; round < 30; round++) {
    work.push(fetch(`${API}/store/orders/${(round % 3) + 1}`, { method: 'DELETE', headers: auth }))
    work.push(sim.reset(round % 4 === 0 ? 'shipped' : 'pending'))
    work.push(fetch(`${API}/store/orders`, { headers: auth }).then(async (response) => lists.push(await response.json())))
  }
  await Promise.all(work)
  for (const orders of lists as { id: number; status: string }[][]) {
    expect(
      orders.map((order) => order.id),
      JSON.stringify(orders),
    ).toEqual([1, 2, 3])
    expect(
      orders.every((order) => order.status === 'shipped') || orders.every((order) => order.status !== 'shipped'),
      JSON.stringify(orders),
    ).toBe(true)
  }
})
