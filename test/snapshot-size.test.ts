// The size of a snapshot (issue 58): 60 sessions on a 100,000-order scenario write what each changed
// and the scenario's name, never the scenario's orders (which would be 61 copies of about 15 MB).
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { SimulatorSnapshot } from '../src/core/simulator/snapshot-schema.js'
import { createSimulator, type Scenario, type Simulator } from '../src/index.js'
import { KEY } from './support/harness.js'

const ORDERS = 100_000
const SESSIONS = 60
const big: Scenario = {
  name: 'big',
  description: '100,000 generated orders',
  apiKeys: [KEY],
  generate: { count: ORDERS, seed: 1, statuses: { pending: 1 } },
}

let sim: Simulator
let text: string
let ids: string[]

// Generating 100,000 orders twice (here and in the restored simulator) takes seconds, more beside other work.
beforeAll(async () => {
  sim = createSimulator({ scenario: big })
  ids = sim.orders().map((order) => String(order.id))
  await sim.updateOrder(ids[0] as string, { status: 'cancelled' })
  for (let index = 0; index < SESSIONS; index++)
    await sim.session(`run-${index}`).updateOrder(ids[index + 1] as string, { status: 'shipped' })
  text = JSON.stringify(sim.snapshot())
}, 120_000)
afterAll(() => sim.close())

test('the snapshot holds each change once and the scenario by name, no order of the scenario', () => {
  const snapshot = JSON.parse(text) as SimulatorSnapshot
  expect(text.length).toBeLessThan(200_000)
  expect(snapshot.states).toHaveLength(SESSIONS + 1)
  expect(snapshot.states.map((state) => ('ref' in state.scenario ? state.scenario.ref : 'embedded'))).toEqual(
    new Array(SESSIONS + 1).fill('big'),
  )
  // One order record per change: the default state's cancel and each session's ship.
  expect(snapshot.states.map((state) => state.orders.records.length)).toEqual(new Array(SESSIONS + 1).fill(1))
  expect(text.match(/"petId":/g)).toHaveLength(SESSIONS + 1)
  // An order no state changed is nowhere in it.
  expect(text).not.toContain(`"id":"${ids[ORDERS - 1]}"`)
})

test('the restored simulator has every change on the same 100,000 orders', () => {
  const again = createSimulator({ scenario: big, restore: JSON.parse(text) as SimulatorSnapshot })
  try {
    expect(again.order(ids[0] as string)?.status).toBe('cancelled')
    expect(again.sessions()).toHaveLength(SESSIONS)
    const last = again.session(`run-${SESSIONS - 1}`)
    expect(last.order(ids[SESSIONS] as string)?.status).toBe('shipped')
    expect(last.orders()).toHaveLength(ORDERS)
  } finally {
    again.close()
  }
}, 120_000)
