import { runInNewContext } from 'node:vm'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { createSimulator, type Scenario } from '../src/index.js'
import { TRANSPORTS } from './support/harness.js'

// Jest runs each test file in a node:vm context of its own and hands it the host's structuredClone,
// so the order model meets plain objects of two realms at once. These tests make both happen without Jest.

/** A copy of `value` made of another realm's plain objects and arrays. */
const foreign = <T>(value: T): T => runInNewContext('(json) => JSON.parse(json)')(JSON.stringify(value)) as T

afterEach(() => {
  vi.unstubAllGlobals()
})

describe.each(TRANSPORTS)('$name', ({ use }) => {
  const simulate = use()

  test('a scenario made in another realm, with a structuredClone of another realm, cancels a pending order: 204', async () => {
    vi.stubGlobal('structuredClone', (value: unknown) => foreign(value))
    const scenario = foreign<Scenario>({
      name: 'from-another-realm',
      orders: [
        { id: 1, petId: 10, quantity: 2, status: 'pending' },
        { id: 2, status: 'shipped' },
      ],
    })
    const api = simulate({ scenario })

    expect((await api.cancel(1)).status).toBe(204)
    expect((await api.cancel(2)).status).toBe(409)
    expect((await api.cancel(1)).status).toBe(409)
    expect(api.sim.orders().map((order) => [order.id, order.status])).toEqual([
      [1, 'cancelled'],
      [2, 'shipped'],
    ])
    expect((await api.list()).json()).toEqual([{ id: 1, petId: 10, quantity: 2 }, { id: 2 }])
  })
})

test('deprecation dates made in another realm are dates', () => {
  const sim = createSimulator({ deprecation: { sunsetAt: runInNewContext('new Date("2027-06-01T00:00:00Z")') as Date } })
  expect(sim.state().options.deprecation.sunsetAt.toISOString()).toBe('2027-06-01T00:00:00.000Z')
})
