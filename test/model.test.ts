import fc from 'fast-check'
import { getResponse } from 'msw'
import { describe, expect, test, vi } from 'vitest'
import type { AfterCancel } from '../src/core/glossary.js'
import { createSimulator, type Simulator } from '../src/index.js'
import { KEY } from './support/harness.js'
import { runs } from './support/runs.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// Each test runs hundreds of random sequences: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 20_000 })

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

/**
 * Model-based tests: random sequences of list, cancel, reset and scenario
 * switch, checked step by step against a small reference model of the spec's
 * state machine. FC_SEED=<n> replays a run; a failure prints its seed and path.
 */
const SEED = Number(process.env['FC_SEED'] ?? Math.floor(Math.random() * 2 ** 31))
console.log(`[model] fast-check seed ${SEED} (replay with FC_SEED=${SEED})`)
/** Sequences per scenario in process, and over HTTP: fewer in the quick loop (support/runs.ts). */
const IN_PROCESS_RUNS = runs(150, 15)
const HTTP_RUNS = runs(100, 10)

const SCENARIOS = ['default', 'pending', 'shipped', 'missing', 'bad-key'] as const
type ScenarioName = (typeof SCENARIOS)[number]
type Status = 'pending' | 'shipped' | 'cancelled'

/** The reference model: just the spec's rules, nothing of the implementation. */
interface Model {
  scenario: ScenarioName
  afterCancel: AfterCancel
  orders: { id: number; status: Status }[]
}

/** Each scenario's initial orders and whether it accepts the test key, read once from fresh simulators. */
const INITIAL = Object.fromEntries(
  SCENARIOS.map((name) => {
    const state = createSimulator({ scenario: name }).state()
    return [
      name,
      { accepts: state.apiKeys.includes(KEY), orders: state.orders.map((order) => ({ id: Number(order.id), status: order.status })) },
    ]
  }),
) as Record<ScenarioName, { accepts: boolean; orders: { id: number; status: Status }[] }>

function initialModel(scenario: ScenarioName, afterCancel: AfterCancel): Model {
  return { scenario, afterCancel, orders: INITIAL[scenario].orders.map((order) => ({ ...order })) }
}

interface Real {
  sim: Simulator
  call(method: string, path: string, key: string): Promise<{ status: number; body: unknown }>
  reset(scenario?: ScenarioName): Promise<void>
}

const authorized = (model: Model, key: string) => key === KEY && INITIAL[model.scenario].accepts

class ListCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly key: string) {}
  check = () => true
  async run(model: Model, real: Real) {
    const { status, body } = await real.call('GET', '/store/orders', this.key)
    if (!authorized(model, this.key)) {
      expect(status).toBe(401)
      return
    }
    expect(status).toBe(200)
    expect((body as { id: number; status: Status }[]).map(({ id, status: orderStatus }) => ({ id, status: orderStatus }))).toEqual(
      model.orders,
    )
  }
  toString = () => `list(${this.key === KEY ? 'good key' : 'bad key'})`
}

type Target = { kind: 'existing'; index: number } | { kind: 'unknown'; id: number } | { kind: 'malformed'; text: string }

class CancelCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly target: Target,
    readonly key: string,
  ) {}
  check = () => true
  async run(model: Model, real: Real) {
    const existing =
      this.target.kind === 'existing' && model.orders.length > 0 ? model.orders[this.target.index % model.orders.length] : undefined
    const pathId =
      existing !== undefined
        ? String(existing.id)
        : this.target.kind === 'malformed'
          ? this.target.text
          : String(this.target.kind === 'unknown' ? this.target.id : 424242)
    const { status, body } = await real.call('DELETE', `/store/orders/${encodeURIComponent(pathId)}`, this.key)
    const code = (body as { code?: string } | null)?.code
    if (!authorized(model, this.key)) {
      expect([status, code]).toEqual([401, 'unauthorized'])
    } else if (this.target.kind === 'malformed' && existing === undefined) {
      expect([status, code]).toEqual([400, 'invalid_order_id'])
    } else if (existing === undefined) {
      expect([status, code]).toEqual([404, 'order_not_found'])
    } else if (existing.status === 'shipped') {
      expect([status, code]).toEqual([409, 'order_already_shipped'])
    } else if (existing.status === 'cancelled') {
      expect([status, code]).toEqual([409, 'order_not_pending'])
    } else {
      expect(status).toBe(204)
      if (model.afterCancel === 'remove') model.orders = model.orders.filter((order) => order !== existing)
      else existing.status = 'cancelled'
    }
    expect(real.sim.orders().map((order) => ({ id: Number(order.id), status: order.status }))).toEqual(model.orders)
  }
  toString = () => `cancel(${JSON.stringify(this.target)}, ${this.key === KEY ? 'good key' : 'bad key'})`
}

class ResetCommand implements fc.AsyncCommand<Model, Real> {
  constructor(readonly scenario?: ScenarioName) {}
  check = () => true
  async run(model: Model, real: Real) {
    await real.reset(this.scenario)
    Object.assign(model, initialModel(this.scenario ?? model.scenario, model.afterCancel))
  }
  toString = () => (this.scenario === undefined ? 'reset()' : `switch(${this.scenario})`)
}

const key = fc.constantFrom(KEY, KEY, KEY, 'wrong-key')
const commands = [
  key.map((k) => new ListCommand(k)),
  fc
    .tuple(
      fc.oneof(
        { weight: 6, arbitrary: fc.nat().map((index): Target => ({ kind: 'existing', index })) },
        { weight: 1, arbitrary: fc.integer({ min: 1000, max: 1_000_000 }).map((id): Target => ({ kind: 'unknown', id })) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom('abc', '1.5', '1e3', '0x10', '+1', '9223372036854775808', ' 1')
            .map((text): Target => ({ kind: 'malformed', text })),
        },
      ),
      key,
    )
    .map(([target, k]) => new CancelCommand(target, k)),
  fc.constant(new ResetCommand()),
  fc.constantFrom(...SCENARIOS).map((name) => new ResetCommand(name)),
]

const parse = async (response: Response) => {
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) }
}

describe.each(['keep', 'remove'] as const)('afterCancel: %s', (afterCancel) => {
  test.each(SCENARIOS)(
    `in process, starting from %s: ${IN_PROCESS_RUNS} random sequences follow the model`,
    async (scenario) => {
      await fc.assert(
        fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (sequence) => {
          const sim = createSimulator({ scenario, afterCancel, exposeStatus: true })
          const real: Real = {
            sim,
            call: async (method, path, k) => {
              const request = new Request(`https://api.petstore.example/v1${path}`, { method, headers: { Authorization: `Bearer ${k}` } })
              const response = await getResponse([...sim.handlers], request)
              if (response === undefined) throw new Error(`No handler answered ${method} ${path}`)
              return parse(response)
            },
            reset: async (name) => sim.reset(name),
          }
          await fc.asyncModelRun(() => ({ model: initialModel(scenario, afterCancel), real }), sequence)
        }),
        { seed: SEED, numRuns: IN_PROCESS_RUNS },
      )
    },
    60_000,
  )
})

describe('over HTTP', () => {
  const serve = useAppServers()

  test(`${HTTP_RUNS} random sequences against the standalone server follow the model, resets through the admin API`, async () => {
    const { origin, sim } = await serve({ scenario: 'pending', exposeStatus: true })
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...SCENARIOS), fc.commands(commands, { maxCommands: 15 }), async (start, sequence) => {
        const real: Real = {
          sim,
          call: async (method, path, k) => parse(await fetch(`${origin}/v1${path}`, { method, headers: { Authorization: `Bearer ${k}` } })),
          reset: async (name) => {
            const response = await fetch(`${origin}/__sim/reset`, {
              method: 'POST',
              body: JSON.stringify(name === undefined ? {} : { scenario: name }),
            })
            expect(response.status).toBe(200)
          },
        }
        await real.reset(start)
        await fc.asyncModelRun(() => ({ model: initialModel(start, 'keep'), real }), sequence)
      }),
      { seed: SEED, numRuns: HTTP_RUNS },
    )
  }, 120_000)
})
