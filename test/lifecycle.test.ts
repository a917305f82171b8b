import { withUnhandledStrategy } from '../src/transports/msw/unhandled-requests.js'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { createSimulator, type Scenario, type Simulator } from '../src/index.js'
import { KEY } from './support/harness.js'
import { useAdminApi, useAppServers } from './support/serve.js'
import { testTime } from './support/test-time.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

const serve = useAppServers()
const auth = { Authorization: `Bearer ${KEY}` }

/** Ten pending orders that ship between 10 and 60 seconds after they are loaded. */
const drawn = (seed: number): Scenario => ({
  name: 'warehouse',
  orders: Array.from({ length: 10 }, (_, index) => ({ id: index + 1, petId: 100 + index })),
  lifecycle: { min: '10s', max: '60s' },
  generate: { count: 0, seed, statuses: { pending: 1 } },
})

const shippedIds = (sim: Simulator) => sim.orders().flatMap((order) => (order.status === 'shipped' ? [Number(order.id)] : []))

// Every simulator here runs on a test time source: the simulated clock is the machine's time plus what was
// advanced, so on the real one a slow machine would ship orders between a step and its assertion.
/** The ids in the order they ship, advancing the clock a second at a time for a minute. */
async function shippingOrder(sim: Simulator): Promise<number[]> {
  const order: number[] = []
  for (let second = 0; second < 61; second++) {
    await sim.advanceClock('1s')
    for (const id of shippedIds(sim)) if (!order.includes(id)) order.push(id)
  }
  return order
}

describe('shipping over time on a simulated clock', () => {
  test('with shipAfter, every pending order ships once that much time has passed: complete becomes true; a cancelled one never ships', async () => {
    const sim = createSimulator({ scenario: 'pending', lifecycle: { shipAfter: '30s' }, time: testTime() })
    await sim.updateOrder(3, { status: 'cancelled' })
    await sim.advanceClock('29s')
    expect(shippedIds(sim)).toEqual([])
    const clock = await sim.advanceClock('1s')
    expect(sim.orders().map(({ id, status, complete }) => [id, status, complete])).toEqual([
      [1, 'shipped', true],
      [2, 'shipped', true],
      [3, 'cancelled', false],
    ])
    expect(clock).toMatchObject({ advancedMs: 30_000, lifecycle: { min: 30_000, max: 30_000 }, pending: [] })
    await sim.advanceClock('24h')
    expect(sim.order(3)?.status).toBe('cancelled')
    sim.close()
  })

  test('{ min, max } draws each delay from the seed: orders ship in the same order twice, and in the order the clock announced', async () => {
    const first = createSimulator({ scenario: drawn(7), time: testTime() })
    const announced = first.clock().pending.map((transition) => Number(transition.orderId))
    const order = await shippingOrder(first)
    expect(order).toHaveLength(10)
    expect(order).toEqual(announced)
    expect(order).not.toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(await shippingOrder(createSimulator({ scenario: drawn(7), time: testTime() }))).toEqual(order)
    expect(await shippingOrder(createSimulator({ scenario: drawn(8), time: testTime() }))).not.toEqual(order)
    // The simulator's seed option draws the same as the scenario's own seed.
    expect(await shippingOrder(createSimulator({ scenario: drawn(1), seed: 7, time: testTime() }))).toEqual(order)
  })

  test('an added order ships that long after it was added; one set back to pending ships anew; a reset starts the clock afresh', async () => {
    const sim = createSimulator({ scenario: 'shipped', lifecycle: { shipAfter: '30s' }, time: testTime() })
    await sim.advanceClock('20s')
    await sim.addOrder({ petId: 12 })
    await sim.updateOrder(1, { status: 'pending', complete: false })
    expect(sim.clock().pending.map(({ orderId }) => orderId)).toEqual([4, 1])
    await sim.advanceClock('29s')
    expect(sim.orders().map((order) => order.status)).toEqual(['pending', 'shipped', 'shipped', 'pending'])
    await sim.advanceClock('1s')
    expect(sim.orders().map((order) => order.status)).toEqual(['shipped', 'shipped', 'shipped', 'shipped'])
    await sim.reset('pending')
    expect(sim.clock()).toMatchObject({ advancedMs: 0, pending: [{ orderId: 1 }, { orderId: 2 }, { orderId: 3 }] })
  })

  test("the option overrides the scenario, and null turns a scenario's lifecycle off", async () => {
    const scenario: Scenario = { name: 'moving', orders: [{ id: 1 }], lifecycle: { shipAfter: '1s' } }
    const off = createSimulator({ scenario, lifecycle: null, time: testTime() })
    await off.advanceClock('1h')
    expect(off.order(1)?.status).toBe('pending')
    expect(off.state().options.lifecycle).toBeNull()
    const slower = createSimulator({ scenario, lifecycle: { shipAfter: '2s' }, time: testTime() })
    await slower.advanceClock('1s')
    expect(slower.order(1)?.status).toBe('pending')
    expect(slower.state().options.lifecycle).toEqual({ min: 2000, max: 2000 })
  })

  test("over HTTP: POST /__sim/clock advances a session's clock only, GET /__sim/clock shows the time and what is to come", async () => {
    const time = testTime()
    const { origin, sim } = await serve({ scenario: 'pending', lifecycle: { min: '10s', max: '20s' }, time })
    const session = { 'X-Sim-Session': 'clock-1', 'Content-Type': 'application/json' }
    const before = (await (await fetch(`${origin}/__sim/clock`, { headers: session })).json()) as Record<string, unknown>
    expect(before).toMatchObject({ advancedMs: 0, lifecycle: { min: 10_000, max: 20_000 } })
    expect((before['pending'] as unknown[]).length).toBe(3)
    expect(before['now']).toBe(new Date(time.now()).toISOString())
    const advanced = await fetch(`${origin}/__sim/clock`, { method: 'POST', headers: session, body: '{"advance":"20s"}' })
    expect(advanced.status).toBe(200)
    expect(await advanced.json()).toMatchObject({ advancedMs: 20_000, pending: [] })
    const cancel = await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: { ...auth, 'X-Sim-Session': 'clock-1' } })
    expect(cancel.status).toBe(409)
    expect(((await cancel.json()) as { code: string }).code).toBe('order_already_shipped')
    expect(sim.orders().map((order) => order.status)).toEqual(['pending', 'pending', 'pending'])
    const state = (await (await fetch(`${origin}/__sim/state`)).json()) as { options: Record<string, unknown> }
    expect(state.options['lifecycle']).toEqual({ min: 10_000, max: 20_000 })
  })
})

describe('timers', () => {
  test('without advancing, orders ship in real time; one timer per state, none after close() or a reset without a lifecycle', async () => {
    const time = testTime()
    const sim = createSimulator({ scenario: 'pending', lifecycle: { shipAfter: '30s' }, time })
    expect(time.pending()).toBe(1)
    sim.session('a')
    expect(time.pending()).toBe(2)
    await time.advance(30_000)
    expect(sim.orders().map((order) => order.status)).toEqual(['shipped', 'shipped', 'shipped'])
    expect(
      sim
        .session('a')
        .orders()
        .map((order) => order.status),
    ).toEqual(['shipped', 'shipped', 'shipped'])
    expect(time.pending()).toBe(0)
    await sim.reset()
    expect(time.pending()).toBe(1)
    await sim.reset({ scenario: 'shipped' })
    expect(time.pending()).toBe(0)
    await sim.reset('pending')
    await sim.session('a').reset()
    expect(time.pending()).toBe(2)
    sim.close()
    expect(time.pending()).toBe(0)
    // Closed, it still answers and moves when told to.
    await sim.advanceClock('30s')
    expect(sim.orders().map((order) => order.status)).toEqual(['shipped', 'shipped', 'shipped'])
  })

  test('an ended session leaves no timer behind', () => {
    const time = testTime()
    const sim = createSimulator({ scenario: 'pending', lifecycle: { shipAfter: '30s' }, time })
    sim.session('b')
    expect(time.pending()).toBe(2)
    sim.endSession('b')
    expect(time.pending()).toBe(1)
  })
})

describe('a lifecycle that is not one is refused at load, naming the field', () => {
  test.each([
    [{ shipAfter: '25h' }, 'lifecycle.shipAfter', /lifecycle\.shipAfter must be a duration from 0 to 24h/],
    [{ shipAfter: 'soon' }, 'lifecycle.shipAfter', /lifecycle\.shipAfter must be a duration/],
    [{ min: '10s' }, 'lifecycle', /lifecycle must be \{ "shipAfter": "30s" \} or \{ "min": "10s", "max": "60s" \}/],
    [{ min: '1m', max: '10s' }, 'lifecycle', /lifecycle\.min \(1m\) must not be longer than lifecycle\.max \(10s\)/],
    [{ shipAfter: '1s', max: '2s' }, 'lifecycle', /not both/],
    [{ shipAfter: '1s', every: '2s' }, 'lifecycle.every', /Unknown field lifecycle\.every/],
    ['30s', 'lifecycle', /lifecycle must be/],
  ])('%j', (lifecycle, field, message) => {
    const directory = mkdtempSync(join(tmpdir(), 'petstore-lifecycle-'))
    const path = join(directory, 'moving.json')
    writeFileSync(path, JSON.stringify({ name: 'moving', orders: [{ id: 1 }], lifecycle }))
    let error: unknown
    try {
      createSimulator({ scenario: path })
    } catch (caught) {
      error = caught
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
    expect(error).toMatchObject({ name: 'ScenarioError', field })
    expect((error as Error).message).toMatch(message)
    expect(() => createSimulator({ lifecycle: lifecycle as never })).toThrow(TypeError)
    expect(() => createSimulator({ lifecycle: lifecycle as never })).toThrow(message)
  })
})

describe('the race: a cancel and a ship of one order at the same moment end one way only', () => {
  type Outcome = 'cancelled' | 'shipped'

  /**
   * Turns of the event loop to hold the cancel and the ship back in a round: one side by 0 to 4, turn about,
   * so that each side wins some rounds. Turns, not milliseconds: who goes first does not hang on the machine's speed.
   */
  const stagger = (round: number): [cancel: number, ship: number] => {
    const offset = (round % 9) - 4
    return offset < 0 ? [0, -offset] : [offset, 0]
  }
  const later = async <T>(turns: number, run: () => Promise<T>): Promise<T> => {
    for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve))
    return run()
  }

  /** Checks one round's end and that it stays so: a cancelled order never ships later. */
  async function settle(sim: Simulator, status: number, code: string | null): Promise<Outcome> {
    await sim.advanceClock('24h')
    const order = sim.order(1)
    if (status === 204) {
      expect(order?.status).toBe('cancelled')
      return 'cancelled'
    }
    expect([status, code, order?.status]).toEqual([409, 'order_already_shipped', 'shipped'])
    return 'shipped'
  }

  test('200 rounds in process: a ship applied by advancing the clock against a cancel through msw', async () => {
    const { setupServer } = await import('msw/node')
    const sim = createSimulator({ scenario: 'pending', lifecycle: { shipAfter: '10s' }, time: testTime() })
    const server = setupServer(...sim.handlers)
    server.listen(withUnhandledStrategy(server, {}, 'error'))
    try {
      const outcomes = { cancelled: 0, shipped: 0 }
      for (let round = 0; round < 200; round++) {
        await sim.reset()
        const [cancelAfter, advanceAfter] = stagger(round)
        const [response] = await Promise.all([
          later(cancelAfter, () => fetch('https://api.petstore.example/v1/store/orders/1', { method: 'DELETE', headers: auth })),
          later(advanceAfter, () => sim.advanceClock('10s')),
        ])
        const code = response.status === 204 ? null : ((await response.json()) as { code: string }).code
        outcomes[await settle(sim, response.status, code)]++
      }
      expect(outcomes.cancelled + outcomes.shipped).toBe(200)
      // Both ends happened: the rounds did race.
      expect(Math.min(outcomes.cancelled, outcomes.shipped)).toBeGreaterThan(0)
      console.log(`in process, 200 rounds: ${outcomes.cancelled} cancelled, ${outcomes.shipped} shipped`)
    } finally {
      server.close()
    }
  }, 60_000)

  test('200 rounds over HTTP: POST /__sim/clock against DELETE /v1/store/orders/1, sent together', async () => {
    const { origin, sim } = await serve({ scenario: 'pending', lifecycle: { shipAfter: '10s' }, time: testTime() })
    const outcomes = { cancelled: 0, shipped: 0 }
    for (let round = 0; round < 200; round++) {
      await sim.reset()
      const advance = () => fetch(`${origin}/__sim/clock`, { method: 'POST', body: '{"advance":"10s"}' })
      const cancel = () => fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: auth })
      const [cancelAfter, advanceAfter] = stagger(round)
      const [clock, response] = await Promise.all([later(advanceAfter, advance), later(cancelAfter, cancel)])
      expect(clock.status).toBe(200)
      const code = response.status === 204 ? null : ((await response.json()) as { code: string }).code
      outcomes[await settle(sim, response.status, code)]++
    }
    expect(outcomes.cancelled + outcomes.shipped).toBe(200)
    expect(Math.min(outcomes.cancelled, outcomes.shipped)).toBeGreaterThan(0)
    console.log(`over HTTP, 200 rounds: ${outcomes.cancelled} cancelled, ${outcomes.shipped} shipped`)
  }, 120_000)
})
