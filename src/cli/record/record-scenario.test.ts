import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, onTestFinished, test } from 'vitest'
import { closedPort, type StandIn, startStandIn } from '../../../test/support/stand-in.js'
import { stringifyExactJson } from '../../core/exact-json.js'
import { parseScenario } from '../../core/scenario/parse-scenario.js'
import { createSimulator } from '../../index.js'
import { parseRecordCommandLine, RECORD_FLAGS, recordHelpText } from './record-command-line.js'
import { recordMain } from './record-main.js'
import { RecordError, recordScenario } from './record-scenario.js'

const KEY = 'staging-secret-key-0123456789'
let standIn: StandIn | undefined
afterEach(async () => {
  await standIn?.close()
  standIn = undefined
})

/** A stand-in of the real service: the list and the pet records, behind the key. */
async function service(orders: unknown[], pets: Record<string, unknown> = {}): Promise<string> {
  standIn = await startStandIn((seen, res) => {
    if (seen.headers.authorization !== `Bearer ${KEY}`)
      return void res.writeHead(401, { 'Content-Type': 'application/json' }).end('{"code":"unauthorized","message":"no","status":401}')
    if (seen.url === '/v1/store/orders') return void res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(orders))
    const pet = pets[seen.url.replace('/v1/pets/', '')]
    if (pet === undefined)
      return void res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"code":"not_found","message":"no","status":404}')
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(pet))
  })
  return `${standIn.origin}/v1`
}

const noSecret = (value: unknown) => expect(stringifyExactJson(value)).not.toContain(KEY)
const SHIP = '2026-02-01T10:00:00.000Z'

test('without a status field, complete: true is shipped and the rest pending; the file loads and lists as the service did', async () => {
  const orders = [
    { id: 1, petId: 7, quantity: 1, shipDate: SHIP, complete: false },
    { id: 2, petId: 8, quantity: 2, shipDate: SHIP, complete: true },
  ]
  const target = await service(orders)
  const scenario = await recordScenario({ target, key: KEY, name: 'staging', pets: false, rate: 100 })
  expect(scenario.orders?.map((order) => order.status)).toEqual(['pending', 'shipped'])
  expect(scenario.description).toContain(
    'status from complete, as the list has no status field (complete: true is shipped, the rest pending)',
  )
  expect(scenario.exposeStatus).toBeUndefined()
  expect(scenario.apiKeys).toBeUndefined()
  noSecret(scenario)
  expect(parseScenario(JSON.parse(stringifyExactJson(scenario)), 'file').apiKeys).toEqual(['petstore-test-key'])
  const sim = createSimulator({ scenario })
  const listed = await sim.fetch('https://api.example.test/v1/store/orders', { headers: { Authorization: 'Bearer petstore-test-key' } })
  expect(await listed.json()).toEqual(orders)
  expect(standIn?.seen.map((seen) => seen.url)).toEqual(['/v1/store/orders'])
})

test('a status the records carry is used, and shown as the service shows it; a mix says so', async () => {
  const target = await service([
    { id: 1, complete: true, status: 'cancelled' },
    { id: 2, complete: false, status: 'shipped' },
  ])
  const carried = await recordScenario({ target, key: KEY, name: 'carried', pets: false, rate: 100 })
  expect(carried.orders?.map((order) => order.status)).toEqual(['cancelled', 'shipped'])
  expect(carried.exposeStatus).toBe(true)
  expect(carried.description).toContain("each order's status as the service's records carry it")
  await standIn?.close()
  const mixed = await recordScenario({
    target: await service([{ id: 1, status: 'shipped' }, { id: 2, complete: true, status: 'placed' }, { id: 3 }]),
    key: KEY,
    name: 'mixed',
    pets: false,
    rate: 100,
  })
  expect(mixed.orders?.map((order) => order.status)).toEqual(['shipped', 'shipped', 'pending'])
  expect(mixed.exposeStatus).toBeUndefined()
  expect(mixed.description).toContain("the records' own status for 1 of 3 orders, else from complete")
})

test('--pets records each petId the orders name as the scenario pets, never a route; an echoed key reads [key]', async () => {
  const target = await service(
    [
      { id: 1, petId: 7 },
      { id: 2, petId: 7 },
      { id: 3, petId: 9 },
      { id: 4, petId: 10 },
    ],
    {
      7: { id: 7, name: 'Rex' },
      10: { id: 10, note: `issued to ${KEY}` },
    },
  )
  const scenario = await recordScenario({ target, key: KEY, name: 'with-pets', pets: true, rate: 100 })
  expect(scenario.pets).toEqual({ 7: { id: 7, name: 'Rex' }, 10: { id: 10, note: 'issued to [key]' } })
  expect(scenario).not.toHaveProperty('routes')
  expect(scenario.description).toContain('2 of 3 pet records (GET /pets/{petId}), 1 not found')
  noSecret(scenario)
  const sim = createSimulator({ scenario })
  const pet = await sim.fetch('https://api.example.test/v1/pets/7', { headers: { Authorization: 'Bearer petstore-test-key' } })
  expect(await pet.json()).toEqual({ id: 7, name: 'Rex' })
})

test('a list that cannot be read is a RecordError of one line that never holds the key', async () => {
  const refused = recordScenario({ target: `http://127.0.0.1:${await closedPort()}/v1`, key: KEY, name: 'x', pets: false, rate: 100 })
  await expect(refused).rejects.toBeInstanceOf(RecordError)
  await expect(refused).rejects.toThrow(/^Failed to reach http:\/\/127\.0\.0\.1:\d+\/v1: /)
  const target = await service([])
  const wrongKey = recordScenario({ target, key: `${KEY}-wrong`, name: 'x', pets: false, rate: 100 })
  await expect(wrongKey).rejects.toThrow(`GET ${target}/store/orders answered 401 "unauthorized", not 200 with the list of orders.`)
  await standIn?.close()
  const broken = recordScenario({ target: await service([{ petId: 1 }]), key: KEY, name: 'x', pets: false, rate: 100 })
  await expect(broken).rejects.toThrow('item 0 of the list has no integer id')
})

test('record: exit 2 and nothing written on bad usage or an unreachable target; the file on success', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-record-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'staging.json')
  const lines: string[] = []
  const out = { stdout: (text: string) => lines.push(text), stderr: (text: string) => lines.push(text) }
  const unreachable = `http://127.0.0.1:${await closedPort()}/v1`
  expect(await recordMain(['--target', unreachable, '--name', 'staging', '--out', file], { PETSTORE_SIM_RECORD_KEY: KEY }, out)).toBe(2)
  expect(await recordMain(['--target', unreachable, '--name', 'Bad Name', '--key', KEY], {}, out)).toBe(2)
  expect(existsSync(file)).toBe(false)
  const target = await service([{ id: 1, complete: true }])
  expect(
    await recordMain(['--target', target, '--name', 'staging', '--out', file, '--rate', '100'], { PETSTORE_SIM_RECORD_KEY: KEY }, out),
  ).toBe(0)
  const written = readFileSync(file, 'utf8')
  expect(JSON.parse(written)).toMatchObject({ name: 'staging', orders: [{ id: 1, complete: true, status: 'shipped' }] })
  expect(written).not.toContain(KEY)
  expect(lines.join('')).not.toContain(KEY)
})

test('the flags: as verify reads them, with PETSTORE_SIM_RECORD_KEY and exit-2 usage errors that never quote the key', () => {
  expect(
    parseRecordCommandLine(['--target', 'https://staging.example.test/v1/', '--name', 'staging', '--pets'], {
      PETSTORE_SIM_RECORD_KEY: KEY,
    }),
  ).toEqual({
    kind: 'record',
    target: 'https://staging.example.test/v1',
    key: KEY,
    name: 'staging',
    out: undefined,
    pets: true,
    rate: 5,
    timeoutMs: 10_000,
  })
  expect(parseRecordCommandLine(['--help'], {})).toEqual({ kind: 'help' })
  const base = ['--target', 'http://h/v1', '--name', 'n']
  expect(() => parseRecordCommandLine(['--name', 'n', '--key', KEY], {})).toThrow('record needs --target <url>')
  expect(() => parseRecordCommandLine(['--target', 'http://u:p@h/v1', '--name', 'n', '--key', KEY], {})).toThrow(
    'must not carry credentials',
  )
  expect(() => parseRecordCommandLine(['--target', 'http://h/v1', '--key', KEY], {})).toThrow('record needs --name')
  expect(() => parseRecordCommandLine(base, {})).toThrow('PETSTORE_SIM_RECORD_KEY')
  expect(() => parseRecordCommandLine([...base, '--key', KEY, '--timeout', '0'], {})).toThrow('--timeout must be a number from 0.1 to 600')
  expect(() => parseRecordCommandLine([...base, '--key', KEY, '--rate', 'fast'], {})).toThrow('--rate must be a number')
  expect(() => parseRecordCommandLine([...base, '--key', KEY, '--out', ''], {})).toThrow('--out needs a file name')
  expect(() => parseRecordCommandLine([...base, '--key', KEY, '--pet'], {})).toThrow(
    /Unknown or incomplete option --pet\b.*Did you mean --pets\?/,
  )
  for (const argv of [
    [...base, '--key', `${KEY}!`],
    [...base, `--key=${KEY}`, '--bogus', KEY],
  ]) {
    expect(() => parseRecordCommandLine(argv, {})).toThrow()
    try {
      parseRecordCommandLine(argv, {})
    } catch (error) {
      expect(String(error)).not.toContain(KEY)
    }
  }
})

test('record --help names every flag, the key variable and the defaults, and exits 0', async () => {
  const lines: string[] = []
  const out = { stdout: (text: string) => lines.push(text), stderr: (text: string) => lines.push(`ERR ${text}`) }
  expect(await recordMain(['--help'], {}, out)).toBe(0)
  expect(lines.join('')).toBe(`${recordHelpText()}\n`)
  for (const flag of RECORD_FLAGS) expect(recordHelpText()).toContain(`--${flag.name}`)
  expect(recordHelpText()).toContain('[env PETSTORE_SIM_RECORD_KEY]')
  expect(recordHelpText()).toContain('Default 5.')
  expect(recordHelpText()).toContain('Default 10.')
  expect(recordHelpText()).toContain('Default: standard output.')
})
