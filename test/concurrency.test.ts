import { expect, test } from 'vitest'
import { KEY } from './support/harness.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

const serve = useAppServers()
const auth = { Authorization: `Bearer ${KEY}` }

test('50 DELETEs of one pending order at once over HTTP: exactly one 204, 49 409s, and the order ends cancelled', async () => {
  const { origin, sim } = await serve({ scenario: 'pending' })

  const statuses = await Promise.all(
    Array.from({ length: 50 }, async () => (await fetch(`${origin}/v1/store/orders/2`, { method: 'DELETE', headers: auth })).status),
  )

  expect(statuses.filter((status) => status === 204)).toHaveLength(1)
  expect(statuses.filter((status) => status === 409)).toHaveLength(49)
  expect(sim.orders().find((order) => order.id === 2)?.status).toBe('cancelled')
  expect(sim.journal.entries().filter((entry) => entry.status === 204)).toHaveLength(1)
})

test('with afterCancel remove, 50 racing DELETEs give one 204 and 49 404s', async () => {
  const { origin, sim } = await serve({ scenario: 'pending', afterCancel: 'remove' })
  const statuses = await Promise.all(
    Array.from({ length: 50 }, async () => (await fetch(`${origin}/v1/store/orders/3`, { method: 'DELETE', headers: auth })).status),
  )
  expect(statuses.filter((status) => status === 204)).toHaveLength(1)
  expect(statuses.filter((status) => status === 404)).toHaveLength(49)
  expect(sim.orders().map((order) => order.id)).toEqual([1, 2])
})

test('cancels racing with resets and scenario switches never show a half-reset store', async () => {
  const { origin } = await serve({ scenario: 'pending', exposeStatus: true })
  // Every consistent state: the pending scenario's three orders, each pending
  // or cancelled, or the shipped scenario's three orders, all shipped.
  const consistent = (orders: { id: number; status: string }[]) =>
    JSON.stringify(orders.map((order) => order.id)) === '[1,2,3]' &&
    (orders.every((order) => order.status === 'pending' || order.status === 'cancelled') ||
      orders.every((order) => order.status === 'shipped'))

  const lists: { id: number; status: string }[][] = []
  const work: Promise<unknown>[] = []
  for (let round = 0; round < 40; round++) {
    work.push(fetch(`${origin}/v1/store/orders/${(round % 3) + 1}`, { method: 'DELETE', headers: auth }))
    work.push(
      fetch(`${origin}/__sim/reset`, { method: 'POST', body: JSON.stringify({ scenario: round % 5 === 0 ? 'shipped' : 'pending' }) }),
    )
    work.push(
      fetch(`${origin}/v1/store/orders`, { headers: auth }).then(async (response) =>
        lists.push((await response.json()) as { id: number; status: string }[]),
      ),
    )
  }
  await Promise.all(work)

  expect(lists).toHaveLength(40)
  for (const orders of lists) expect(consistent(orders), JSON.stringify(orders)).toBe(true)
})
