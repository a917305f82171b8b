import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { BUILTIN_SCENARIOS, createSimulator, isScenarioError, ScenarioError, type Scenario } from '../src/index.js'
import { createAjv } from './support/ajv.js'
import { useInProcessSimulator } from './support/harness.js'

const simulate = useInProcessSimulator()
const ajv = createAjv({ strict: true })
const validateAgainstSchema = ajv.compile(
  JSON.parse(readFileSync(new URL('../scenarios/scenario.schema.json', import.meta.url), 'utf8')) as object,
)

const directory = mkdtempSync(join(tmpdir(), 'petstore-scenarios-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
function writeScenario(name: string, content: string): string {
  const path = join(directory, name)
  writeFileSync(path, content)
  return path
}
const valid = { name: 'mine', description: 'my own', apiKeys: ['petstore-test-key'], orders: [{ id: 1, status: 'pending' }] }

describe('built-in scenarios', () => {
  test('are default, pending, shipped, missing, bad-key, flaky-network and slow-cancel, each valid against the JSON Schema beside them', () => {
    expect(Object.keys(BUILTIN_SCENARIOS)).toEqual(['default', 'pending', 'shipped', 'missing', 'bad-key', 'flaky-network', 'slow-cancel'])
    for (const [name, scenario] of Object.entries(BUILTIN_SCENARIOS)) {
      expect(validateAgainstSchema(scenario), `${name}: ${ajv.errorsText(validateAgainstSchema.errors)}`).toBe(true)
      expect((scenario as Scenario).name).toBe(name)
    }
  })

  test('all accept petstore-test-key except bad-key, which accepts none', () => {
    for (const name of Object.keys(BUILTIN_SCENARIOS)) {
      expect(createSimulator({ scenario: name }).state().apiKeys, name).toEqual(name === 'bad-key' ? [] : ['petstore-test-key'])
    }
  })

  test('default holds 12 to 25 orders, pending and shipped, with realistic fields', () => {
    const orders = createSimulator().orders()
    expect(orders.length).toBeGreaterThanOrEqual(12)
    expect(orders.length).toBeLessThanOrEqual(25)
    expect(new Set(orders.map((order) => order.status))).toEqual(new Set(['pending', 'shipped']))
    expect(orders.map((order) => order.id)).toEqual(orders.map((_, index) => index + 1))
    for (const order of orders) {
      expect(order.quantity).toBeGreaterThanOrEqual(1)
      expect(Number(order.petId)).toBeGreaterThanOrEqual(1)
      expect(order.complete).toBe(order.status === 'shipped')
      expect(new Date(order.shipDate ?? '').toISOString()).toBe(order.shipDate)
    }
  })

  test('pending holds only pending orders, shipped only shipped ones, missing none, bad-key some', () => {
    const statuses = (scenario: string) =>
      createSimulator({ scenario })
        .orders()
        .map((order) => order.status)
    expect(statuses('pending')).toEqual(['pending', 'pending', 'pending'])
    expect(statuses('shipped')).toEqual(['shipped', 'shipped', 'shipped'])
    expect(statuses('missing')).toEqual([])
    expect(statuses('bad-key').length).toBeGreaterThan(0)
  })
})

describe('determinism', () => {
  test('the same scenario and seed give a byte-identical list, in separate simulators', async () => {
    const first = await simulate({ seed: 7 }).list()
    const second = await simulate({ seed: 7 }).list()
    expect(first.text).toBe(second.text)
  })

  test('the built-in default is the same list every time without a seed', async () => {
    expect((await simulate().list()).text).toBe((await simulate().list()).text)
  })

  test('another seed gives other orders', async () => {
    expect((await simulate({ seed: 1 }).list()).text).not.toBe((await simulate({ seed: 2 }).list()).text)
  })

  test('reset with a seed regenerates, and reset without one keeps the seed', async () => {
    const api = simulate()
    const seven = (await simulate({ seed: 7 }).list()).text
    api.sim.reset(undefined, { seed: 7 })
    expect((await api.list()).text).toBe(seven)
    await api.cancel(api.sim.orders().find((order) => order.status === 'pending')?.id ?? 0)
    api.sim.reset()
    expect((await api.list()).text).toBe(seven)
    expect(api.sim.state().seed).toBe(7)
  })
})

describe('scenario files', () => {
  test('load by path, in the simulator and on reset', async () => {
    const path = writeScenario('mine.json', JSON.stringify(valid))
    const api = simulate({ scenario: path })
    expect(api.sim.state()).toMatchObject({ scenario: 'mine', source: path })
    expect((await api.list()).json()).toEqual([{ id: 1 }])

    api.sim.reset('shipped')
    expect(api.sim.state().scenario).toBe('shipped')
    api.sim.reset(path)
    expect(api.sim.orders()).toEqual([{ id: 1, status: 'pending' }])
  })

  test('may combine explicit orders with generated ones, which follow the largest explicit id', () => {
    const path = writeScenario(
      'mixed.json',
      JSON.stringify({
        ...valid,
        orders: [{ id: 40, status: 'shipped' }],
        generate: { count: 3, seed: 1, statuses: { cancelled: 1 } },
      }),
    )
    const orders = createSimulator({ scenario: path }).orders()
    expect(orders.map((order) => [order.id, order.status])).toEqual([
      [40, 'shipped'],
      [41, 'cancelled'],
      [42, 'cancelled'],
      [43, 'cancelled'],
    ])
  })

  test('keep every digit of int64 ids written beyond 2^53', () => {
    const path = writeScenario(
      'big.json',
      '{"name":"big","description":"d","apiKeys":[],"orders":[{"id":9007199254740993,"status":"pending"},{"id":9007199254740992,"status":"pending"}]}',
    )
    expect(
      createSimulator({ scenario: path })
        .orders()
        .map((order) => order.id),
    ).toEqual([9007199254740993n, 9007199254740992])
  })

  test('need only a name: no description, the test key, and orders that are pending unless they say otherwise', async () => {
    const api = simulate({ scenario: { name: 'minimal', orders: [{ id: 1 }, { id: 2, status: 'shipped' }] } })
    expect(api.sim.state()).toMatchObject({ scenario: 'minimal', description: '', apiKeys: ['petstore-test-key'] })
    expect(api.sim.orders()).toEqual([
      { id: 1, status: 'pending' },
      { id: 2, status: 'shipped' },
    ])
    expect((await api.cancel(1)).status).toBe(204)
    expect(validateAgainstSchema({ name: 'minimal', orders: [{ id: 1 }] })).toBe(true)
  })

  test('take a lifecycle the schema takes too: shipAfter, or min and max, as strings or milliseconds', () => {
    for (const lifecycle of [{ shipAfter: '30s' }, { min: '10s', max: '1.5m' }, { shipAfter: 250 }, { min: 0, max: '24h' }]) {
      const scenario = { name: 'moving', orders: [{ id: 1 }], lifecycle }
      expect(validateAgainstSchema(scenario), JSON.stringify(lifecycle)).toBe(true)
      expect(createSimulator({ scenario: writeScenario('moving.json', JSON.stringify(scenario)) }).clock().pending).toHaveLength(1)
    }
  })

  test('accept the JSON Schema reference and a byte-order mark', () => {
    const path = writeScenario('bom.json', `\uFEFF${JSON.stringify({ $schema: './scenario.schema.json', ...valid })}`)
    expect(createSimulator({ scenario: path }).orders()).toHaveLength(1)
  })
})

const badFiles: { case: string; content: string; field?: string; message: string; schemaRejects: boolean }[] = [
  {
    case: 'invalid JSON',
    content: '{"name": "x",\n  "apiKeys": [}',
    message: "the file is not valid JSON: Array item expected but got '}' at line 2, column 15",
    schemaRejects: false,
  },
  { case: 'an empty file', content: '', message: 'not valid JSON', schemaRejects: false },
  {
    case: 'a duplicate key',
    content: '{"name":"a","name":"b","description":"d","apiKeys":[]}',
    message: "Duplicate key 'name'",
    schemaRejects: false,
  },
  { case: 'an array instead of an object', content: '[]', message: 'the scenario must be an object, got an array', schemaRejects: true },
  {
    case: 'a missing name',
    content: JSON.stringify({ description: 'd', apiKeys: [] }),
    field: 'name',
    message: 'name is required',
    schemaRejects: true,
  },
  {
    case: 'a name with upper case',
    content: JSON.stringify({ ...valid, name: 'Mine' }),
    field: 'name',
    message: 'name must be 1 to 64 lower-case letters',
    schemaRejects: true,
  },
  {
    case: 'a key that is not a string',
    content: JSON.stringify({ ...valid, apiKeys: [42] }),
    field: 'apiKeys[0]',
    message: 'apiKeys[0] must be a string, got 42',
    schemaRejects: true,
  },
  {
    case: 'a key that cannot be a bearer token',
    content: JSON.stringify({ ...valid, apiKeys: ['two words'] }),
    field: 'apiKeys[0]',
    message: 'apiKeys[0] must be usable as a bearer token',
    schemaRejects: true,
  },
  {
    case: 'an unknown top-level field',
    content: JSON.stringify({ ...valid, order: [] }),
    field: 'order',
    message:
      'unknown field order (allowed: name, description, apiKeys, orders, generate, pets, exposeStatus, afterCancel, latency, faults, rateLimit, lifecycle, routes, deprecation)',
    schemaRejects: true,
  },
  {
    case: 'an unknown order field',
    content: JSON.stringify({ ...valid, orders: [{ id: 1, status: 'pending', price: 3 }] }),
    field: 'orders[0].price',
    message: 'unknown field orders[0].price',
    schemaRejects: true,
  },
  {
    case: 'a string id',
    content: JSON.stringify({ ...valid, orders: [{ id: '1', status: 'pending' }] }),
    field: 'orders[0].id',
    message: 'orders[0].id must be an integer between -9223372036854775808 and 9223372036854775807 (int64), got the string "1"',
    schemaRejects: true,
  },
  {
    case: 'a fractional id',
    content: JSON.stringify({ ...valid, orders: [{ id: 1.5, status: 'pending' }] }),
    field: 'orders[0].id',
    message: 'orders[0].id must be an integer',
    schemaRejects: true,
  },
  {
    case: 'an id beyond int64',
    content: '{"name":"x","description":"d","apiKeys":[],"orders":[{"id":9223372036854775808,"status":"pending"}]}',
    field: 'orders[0].id',
    message: 'orders[0].id must be an integer between',
    schemaRejects: false,
  },
  {
    case: 'duplicate ids',
    content: JSON.stringify({
      ...valid,
      orders: [
        { id: 1, status: 'pending' },
        { id: 2, status: 'pending' },
        { id: 1, status: 'shipped' },
      ],
    }),
    field: 'orders[2].id',
    message: 'orders[2].id 1 duplicates orders[0].id',
    schemaRejects: false,
  },
  {
    case: 'an unknown status',
    content: JSON.stringify({ ...valid, orders: [{ id: 1, status: 'delivered' }] }),
    field: 'orders[0].status',
    message: 'orders[0].status must be one of "pending", "shipped", "cancelled", got the string "delivered"',
    schemaRejects: true,
  },
  {
    case: 'a quantity that is a string',
    content: JSON.stringify({ ...valid, orders: [{ id: 1, status: 'pending', quantity: '2' }] }),
    field: 'orders[0].quantity',
    message: 'orders[0].quantity must be an integer',
    schemaRejects: true,
  },
  {
    case: 'complete as a string',
    content: JSON.stringify({ ...valid, orders: [{ id: 1, status: 'pending', complete: 'yes' }] }),
    field: 'orders[0].complete',
    message: 'orders[0].complete must be true or false',
    schemaRejects: true,
  },
  {
    case: 'a date that is not ISO 8601',
    content: JSON.stringify({ ...valid, orders: [{ id: 1, status: 'pending', shipDate: '01/02/2026' }] }),
    field: 'orders[0].shipDate',
    message: 'orders[0].shipDate must be an ISO 8601 date-time',
    schemaRejects: true,
  },
  {
    case: 'a date that does not exist',
    content: JSON.stringify({ ...valid, orders: [{ id: 1, status: 'pending', shipDate: '2026-02-30T00:00:00Z' }] }),
    field: 'orders[0].shipDate',
    message: 'orders[0].shipDate must be an ISO 8601 date-time',
    schemaRejects: true,
  },
  {
    case: 'a date without a time zone',
    content: JSON.stringify({ ...valid, orders: [{ id: 1, status: 'pending', shipDate: '2026-02-03T00:00:00' }] }),
    field: 'orders[0].shipDate',
    message: 'orders[0].shipDate must be an ISO 8601 date-time',
    schemaRejects: true,
  },
  {
    case: 'a generator without a seed',
    content: JSON.stringify({ ...valid, generate: { count: 3, statuses: { pending: 1 } } }),
    field: 'generate.seed',
    message: 'generate.seed is required',
    schemaRejects: true,
  },
  {
    case: 'a generator with no positive weight',
    content: JSON.stringify({ ...valid, generate: { count: 3, seed: 1, statuses: { pending: 0 } } }),
    field: 'generate.statuses',
    message: 'at least one status a weight above 0',
    schemaRejects: false,
  },
  {
    case: 'a generator with an inverted range',
    content: JSON.stringify({ ...valid, generate: { count: { min: 5, max: 2 }, seed: 1, statuses: { pending: 1 } } }),
    field: 'generate.count',
    message: 'generate.count.min (5) must not be greater than generate.count.max (2)',
    schemaRejects: false,
  },
  {
    case: 'a generator above the order limit',
    content: JSON.stringify({ ...valid, generate: { count: 100001, seed: 1, statuses: { pending: 1 } } }),
    field: 'generate.count',
    message: 'generate.count must be between 0 and 100000',
    schemaRejects: true,
  },
  {
    case: 'generated ids colliding with explicit ones',
    content: JSON.stringify({ ...valid, generate: { count: 3, seed: 1, statuses: { pending: 1 }, firstId: 1 } }),
    field: 'generate.firstId',
    message: 'generated order id 1 collides with orders[0].id',
    schemaRejects: false,
  },
  {
    case: 'an unknown afterCancel',
    content: JSON.stringify({ ...valid, afterCancel: 'delete' }),
    field: 'afterCancel',
    message: 'afterCancel must be one of "keep", "remove"',
    schemaRejects: true,
  },
  {
    case: 'pets as an array',
    content: JSON.stringify({ ...valid, pets: [] }),
    field: 'pets',
    message: 'pets must be an object keyed by petId',
    schemaRejects: true,
  },
  {
    case: 'a lifecycle past 24 hours',
    content: JSON.stringify({ ...valid, lifecycle: { shipAfter: 86_400_001 } }),
    field: 'lifecycle.shipAfter',
    message: 'lifecycle.shipAfter must be a duration from 0 to 24h',
    schemaRejects: true,
  },
  {
    case: 'a lifecycle with an unknown field',
    content: JSON.stringify({ ...valid, lifecycle: { after: '1s' } }),
    field: 'lifecycle.after',
    message: 'Unknown field lifecycle.after',
    schemaRejects: true,
  },
  {
    case: 'a lifecycle duration that does not parse',
    content: JSON.stringify({ ...valid, lifecycle: { min: '1s', max: 'later' } }),
    field: 'lifecycle.max',
    message: 'lifecycle.max must be a duration',
    schemaRejects: true,
  },
]

describe('a bad scenario file', () => {
  test.each(badFiles)('is refused for $case, naming the file and the field', (bad) => {
    const path = writeScenario(`bad-${bad.case.replaceAll(' ', '-')}.json`, bad.content)
    let error: unknown
    try {
      createSimulator({ scenario: path })
    } catch (caught) {
      error = caught
    }
    expect(isScenarioError(error)).toBe(true)
    const scenarioError = error as ScenarioError
    expect(scenarioError.message).toMatch(new RegExp(`^Failed to load scenario "${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}": `))
    expect(scenarioError.message).toContain(bad.message)
    expect(scenarioError.source).toBe(path)
    expect(scenarioError.field).toBe(bad.field)
  })

  test.each(badFiles.filter((bad) => bad.schemaRejects))('is also refused by scenario.schema.json for $case', (bad) => {
    expect(validateAgainstSchema(JSON.parse(bad.content))).toBe(false)
  })

  test('leaves a running simulator exactly as it was when reset to it: nothing is half-loaded', async () => {
    const api = simulate({ scenario: 'pending' })
    await api.cancel(1)
    const before = api.sim.state()
    const path = writeScenario(
      'half.json',
      JSON.stringify({
        ...valid,
        orders: [
          { id: 1, status: 'pending' },
          { id: 2, status: 'pending' },
          { id: 2, status: 'pending' },
        ],
      }),
    )

    expect(() => api.sim.reset(path)).toThrow(ScenarioError)

    expect(api.sim.state()).toEqual(before)
    expect((await api.cancel(2)).status).toBe(204)
  })

  test('is refused when the path does not exist or is a folder', () => {
    mkdirSync(join(directory, 'folder.json'), { recursive: true })
    expect(() => createSimulator({ scenario: join(directory, 'nope.json') })).toThrow(
      /^Failed to load scenario ".*nope\.json": no such file\.$/,
    )
    expect(() => createSimulator({ scenario: join(directory, 'folder.json') })).toThrow(/the path is not a file/)
  })

  test('is refused by name when no built-in has that name, listing the names there are', () => {
    expect(() => createSimulator({ scenario: 'shiped' })).toThrow(
      'Failed to load scenario "shiped": no built-in scenario has this name; the built-in scenarios are default, pending, shipped, missing, bad-key',
    )
  })

  test('given as an object is refused the same way', () => {
    expect(() => createSimulator({ scenario: { ...valid, orders: [{ id: 1, status: 'lost' }] } as unknown as Scenario })).toThrow(
      'Failed to load scenario "mine": orders[0].status must be one of',
    )
  })
})
