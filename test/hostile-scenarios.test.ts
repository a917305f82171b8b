import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test, vi } from 'vitest'
import { createSimulator, ScenarioError } from '../src/index.js'
import { MAX_SCENARIO_FILE_BYTES } from '../src/core/scenario/scenario-file.js'
import { KEY } from './support/harness.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// Tests here load or refuse scenarios of up to a million orders: seconds on an idle machine, three to four times that beside other work (npm run test:loaded).
vi.setConfig({ testTimeout: 20_000 })

// The admin app and the answer checker load in set-up, not in the first test that calls /__sim.
useAdminApi()

const directory = mkdtempSync(join(tmpdir(), 'petstore-hostile-'))
afterAll(() => rmSync(directory, { recursive: true, force: true }))
function write(name: string, content: string | Buffer): string {
  const path = join(directory, name)
  writeFileSync(path, content)
  return path
}
const base = { name: 'hostile', description: 'hostile', apiKeys: [KEY] }

describe('hostile scenario files', () => {
  test('__proto__ and constructor keys pollute no prototype: refused at the top level, kept as plain pet ids', () => {
    const topLevel = write('proto-top.json', '{"name":"x","description":"d","apiKeys":[],"__proto__":{"polluted":true}}')
    expect(() => createSimulator({ scenario: topLevel })).toThrow('unknown field __proto__')
    const inOrder = write(
      'proto-order.json',
      '{"name":"x","description":"d","apiKeys":[],"orders":[{"id":1,"status":"pending","constructor":{"prototype":{"polluted":true}}}]}',
    )
    expect(() => createSimulator({ scenario: inOrder })).toThrow('unknown field orders[0].constructor')

    const inPets = write(
      'proto-pets.json',
      '{"name":"x","description":"d","apiKeys":[],"pets":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}}',
    )
    const sim = createSimulator({ scenario: inPets })
    expect(sim.state().scenario).toBe('x')
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
    expect((Object.prototype as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  test('a file over 32 MiB is refused before it is read, naming the file and the limit', () => {
    const path = write('huge.json', Buffer.alloc(50 * 1024 * 1024, 0x20))
    expect(() => createSimulator({ scenario: path })).toThrow(
      `Failed to load scenario "${path}": the file is ${50 * 1024 * 1024} bytes; the largest scenario file read is ${MAX_SCENARIO_FILE_BYTES} bytes.`,
    )
  })

  test('100-level nesting inside a pet is refused with the path to the deepest level allowed', () => {
    const deep = `{"name":"x","description":"d","apiKeys":[],"pets":{"1":${'['.repeat(100)}${']'.repeat(100)}}}`
    expect(() => createSimulator({ scenario: write('deep.json', deep) })).toThrow(/pets\.1(\[0\])+ is nested more than 32 levels deep/)
  })

  test('100,000-level nesting does not overflow the stack: it is refused as too deep', () => {
    const deeper = `{"name":"x","description":"d","apiKeys":[],"pets":{"1":${'['.repeat(100_000)}${']'.repeat(100_000)}}}`
    expect(() => createSimulator({ scenario: write('deeper.json', deeper) })).toThrow(ScenarioError)
  })

  test('a million orders are refused, explicit or generated, naming the limit', () => {
    expect(() =>
      createSimulator({
        scenario: write(
          'million-generated.json',
          JSON.stringify({ ...base, generate: { count: 1_000_000, seed: 1, statuses: { pending: 1 } } }),
        ),
      }),
    ).toThrow('generate.count must be between 0 and 100000, got 1000000')
    const million = `{"name":"x","description":"d","apiKeys":[],"orders":[${Array.from({ length: 1_000_000 }, (_, index) => `{"id":${index},"status":"pending"}`).join(',')}]}`
    expect(() => createSimulator({ scenario: write('million-explicit.json', million) })).toThrow(
      'orders holds 1000000 records; the most a scenario may hold is 100000',
    )
  })

  test('100,000 orders, the documented bound, load', () => {
    const path = write(
      'bound.json',
      JSON.stringify({ ...base, generate: { count: 100_000, seed: 1, statuses: { pending: 1, shipped: 1 } } }),
    )
    expect(createSimulator({ scenario: path }).orders()).toHaveLength(100_000)
  }, 60_000)

  test('colliding ids are refused, explicit with explicit and generated with explicit', () => {
    expect(() =>
      createSimulator({
        scenario: write(
          'collide.json',
          JSON.stringify({
            ...base,
            orders: [
              { id: 7, status: 'pending' },
              { id: 7, status: 'shipped' },
            ],
          }),
        ),
      }),
    ).toThrow('orders[1].id 7 duplicates orders[0].id')
    expect(() =>
      createSimulator({
        scenario: write(
          'collide-generated.json',
          JSON.stringify({
            ...base,
            orders: [{ id: 3, status: 'pending' }],
            generate: { count: 5, seed: 1, firstId: 1, statuses: { pending: 1 } },
          }),
        ),
      }),
    ).toThrow('generated order id 3 collides with orders[0].id')
  })

  test('negative quantities are accepted: the contract only says integer', () => {
    const sim = createSimulator({
      scenario: write('negative.json', JSON.stringify({ ...base, orders: [{ id: 1, quantity: -3, status: 'pending' }] })),
    })
    expect(sim.orders()).toEqual([{ id: 1, quantity: -3, status: 'pending' }])
  })

  test.each(['2026-13-01T00:00:00Z', '2026-02-29T00:00:00Z', 'yesterday', '2026-01-01', '1767225600', '2026-01-01T25:00:00Z'])(
    'the non-ISO date %s is refused',
    (date) => {
      expect(() =>
        createSimulator({
          scenario: write(
            `date-${date.replaceAll(':', '-')}.json`,
            JSON.stringify({ ...base, orders: [{ id: 1, shipDate: date, status: 'pending' }] }),
          ),
        }),
      ).toThrow('orders[0].shipDate must be an ISO 8601 date-time')
    },
  )
})

describe('scenario names over HTTP', () => {
  const serve = useAppServers()

  test.each(['../scenarios/shipped.json', '/etc/passwd', 'link.json', '..', 'shipped/../pending', '%2e%2e%2fetc%2fpasswd'])(
    '%s is refused and the server keeps serving its scenario',
    async (name) => {
      symlinkSync('/etc/passwd', join(directory, `link-${Math.random()}.json`))
      const { origin, sim } = await serve({ scenario: 'pending' })
      const before = sim.state()

      const response = await fetch(`${origin}/__sim/reset`, { method: 'POST', body: JSON.stringify({ scenario: name }) })

      expect(response.status).toBe(400)
      expect(((await response.json()) as { code: string }).code).toBe('unknown_scenario')
      expect(sim.state()).toEqual(before)
      expect((await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(
        204,
      )
    },
  )
})
