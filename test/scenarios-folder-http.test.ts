import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, onTestFinished, test, vi } from 'vitest'
import { createAjv } from './support/ajv.js'
import { useAdminApi, useAppServers } from './support/serve.js'

// The admin app and the answer checker load in beforeAll, not in the first test that calls /__sim.
useAdminApi()

// The scenarios folder over HTTP (issue 32): listed, loaded by name in any session, saved, read as files.
// Every admin answer here is checked against the admin document (made from the admin table) by the setup file.

const serveApp = useAppServers()
/** A server as `useAppServers` makes it, its simulator closed after the test: it stops watching the folder the test removes. */
const serve: typeof serveApp = async (...args) => {
  const served = await serveApp(...args)
  onTestFinished(() => served.sim.close())
  return served
}
const validateAgainstSchema = createAjv({ strict: true }).compile(
  JSON.parse(readFileSync(new URL('../scenarios/scenario.schema.json', import.meta.url), 'utf8')) as object,
)
const json = { 'Content-Type': 'application/json' }
const auth = { Authorization: 'Bearer petstore-test-key' }

afterEach(() => vi.restoreAllMocks())

function folderWith(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-folder-http-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  return dir
}

const qaBig = JSON.stringify({ name: 'qa-big', description: 'QA big', orders: [{ id: 1 }, { id: 2, status: 'shipped' }, { id: 3 }] })

async function call(origin: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { ...json, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) }
}

describe.each(['listener', 'express'] as const)('the scenarios folder over HTTP (%s)', (via) => {
  test('GET /__sim/scenarios lists the folder files with source folder, a broken one with its error and line', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const dir = folderWith({ 'qa-big.json': qaBig, 'broken.json': '{\n  "orders": [\n    {"id": 1},,\n  ]\n}\n', 'default.json': '{}' })
    const { origin } = await serve({ scenariosDir: dir, scenario: 'pending' }, via)
    const { status, body } = await call(origin, 'GET', '/__sim/scenarios')
    expect(status).toBe(200)
    const list = body as { name: string; source?: string }[]
    expect(list.find((entry) => entry.name === 'pending')).toEqual({
      name: 'pending',
      description: expect.any(String),
      builtin: true,
      current: true,
    })
    expect(list.find((entry) => entry.name === 'qa-big')).toEqual({
      name: 'qa-big',
      description: 'QA big',
      builtin: false,
      current: false,
      source: 'folder',
      file: 'qa-big.json',
      error: null,
      line: null,
    })
    expect(list.find((entry) => entry.name === 'broken')).toMatchObject({
      source: 'folder',
      error: expect.stringMatching(/not valid JSON.*line 3/),
      line: 3,
    })
    expect(list.find((entry) => entry.source === 'folder' && entry.name === 'default')).toMatchObject({
      file: 'default.json',
      error: expect.stringContaining('"default" is the name of a built-in scenario'),
    })
  })

  test('POST /__sim/reset names a folder scenario, in the simulator and in a session apart; a broken one is a 409 changing nothing', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const dir = folderWith({ 'qa-big.json': qaBig, 'broken.json': '{' })
    const { origin, sim } = await serve({ scenariosDir: dir, scenario: 'pending' }, via)
    const session = { 'X-Sim-Session': 'qa-1' }
    const reset = await call(origin, 'POST', '/__sim/reset', { scenario: 'qa-big' }, session)
    expect(reset.status).toBe(200)
    expect(reset.body).toMatchObject({ scenario: 'qa-big', source: join(dir, 'qa-big.json') })
    expect(sim.session('qa-1').orders()).toHaveLength(3)
    expect(sim.state().scenario).toBe('pending')
    await call(origin, 'POST', '/__sim/reset', { scenario: 'qa-big' })
    expect(sim.state().scenario).toBe('qa-big')
    const broken = await call(origin, 'POST', '/__sim/reset', { scenario: 'broken' })
    expect(broken).toMatchObject({ status: 409, body: { code: 'scenario_file_invalid', message: expect.stringContaining('broken.json') } })
    expect(sim.state().scenario).toBe('qa-big')
    const unknown = await call(origin, 'POST', '/__sim/reset', { scenario: '../qa-big' })
    expect(unknown).toMatchObject({ status: 400, body: { code: 'unknown_scenario', message: expect.stringContaining('qa-big') } })
  })

  test('a file written after start is offered at once, and a removed one is no longer', async () => {
    const dir = folderWith()
    const { origin } = await serve({ scenariosDir: dir }, via)
    writeFileSync(join(dir, 'late.json'), JSON.stringify({ orders: [] }))
    expect((await call(origin, 'POST', '/__sim/reset', { scenario: 'late' })).status).toBe(200)
    rmSync(join(dir, 'late.json'))
    expect((await call(origin, 'POST', '/__sim/reset', { scenario: 'late' })).status).toBe(400)
  })

  test('POST /__sim/scenarios saves the session state as <name>.json: 201 and Location, 409 when taken, 200 with overwrite', async () => {
    const dir = folderWith()
    const { origin, sim } = await serve({ scenariosDir: dir, scenario: 'pending' }, via)
    const session = { 'X-Sim-Session': 'qa-2', ...auth }
    await fetch(`${origin}/v1/store/orders/1`, { method: 'DELETE', headers: session })
    await call(origin, 'PUT', '/__sim/latency', '10-20', session)
    const saved = await call(origin, 'POST', '/__sim/scenarios', { name: 'after-cancel', description: 'order 1 cancelled' }, session)
    expect(saved.status).toBe(201)
    expect(saved.headers.get('Location')).toBe('/__sim/scenarios/after-cancel')
    expect(saved.body).toMatchObject({
      name: 'after-cancel',
      description: 'order 1 cancelled',
      source: 'folder',
      file: 'after-cancel.json',
    })
    const file = JSON.parse(readFileSync(join(dir, 'after-cancel.json'), 'utf8')) as object
    expect(validateAgainstSchema(file)).toBe(true)
    expect(file).toMatchObject({ name: 'after-cancel', latency: '10-20', orders: [{ id: 1, status: 'cancelled' }, { id: 2 }, { id: 3 }] })
    const again = await call(origin, 'POST', '/__sim/scenarios', { name: 'after-cancel' }, session)
    expect(again).toMatchObject({ status: 409, body: { code: 'scenario_exists', message: expect.stringContaining('"overwrite": true') } })
    expect((await call(origin, 'POST', '/__sim/scenarios', { name: 'after-cancel', overwrite: true }, session)).status).toBe(200)
    const fresh = await call(origin, 'POST', '/__sim/reset', { scenario: 'after-cancel' }, { 'X-Sim-Session': 'qa-3' })
    expect((fresh.body as { orders: unknown[] }).orders).toEqual(sim.session('qa-2').orders())
    expect(sim.session('qa-3').latency()).toEqual({ default: { min: 10, max: 20 } })
  })

  test('a save with a bad name or body is a 400, a built-in name a 409, and nothing is written', async () => {
    const dir = folderWith()
    const { origin, sim } = await serve({ scenariosDir: dir, scenario: 'pending' }, via)
    const before = sim.state()
    for (const body of [
      { name: '../outside' },
      { name: 'a/b' },
      { name: 'qa.big' },
      { name: '..' },
      { name: 'x'.repeat(200) },
      { name: 7 },
      {},
      { name: 'ok', overwite: true },
      { name: 'ok', description: 5 },
      { name: 'ok', overwrite: 'yes' },
    ]) {
      const answer = await call(origin, 'POST', '/__sim/scenarios', body)
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(400)
    }
    expect(await call(origin, 'POST', '/__sim/scenarios', { name: 'pending' })).toMatchObject({
      status: 409,
      body: { code: 'scenario_exists' },
    })
    expect(readdirSync(dir)).toEqual([])
    expect(sim.state()).toEqual(before)
  })

  test('without a scenarios folder a save is a 409 that says how to give one', async () => {
    const { origin } = await serve({}, via)
    const answer = await call(origin, 'POST', '/__sim/scenarios', { name: 'x' })
    expect(answer).toMatchObject({
      status: 409,
      body: { code: 'scenarios_dir_unavailable', message: expect.stringContaining('--scenarios-dir') },
    })
  })

  test('GET /__sim/scenarios/<name> gives a built-in or a folder scenario as its file; an unknown one is a 404', async () => {
    const dir = folderWith({ 'qa-big.json': qaBig })
    const { origin } = await serve({ scenariosDir: dir }, via)
    const builtin = await call(origin, 'GET', '/__sim/scenarios/shipped')
    expect(builtin.status).toBe(200)
    expect(builtin.headers.get('Content-Disposition')).toBe('attachment; filename="shipped.json"')
    expect(builtin.body).toMatchObject({ name: 'shipped', orders: expect.any(Array) })
    const fromFolder = await fetch(`${origin}/__sim/scenarios/qa-big`)
    expect(await fromFolder.text()).toBe(qaBig)
    for (const name of ['nope', '..%2Fqa-big', 'qa-big.json'])
      expect((await call(origin, 'GET', `/__sim/scenarios/${name}`)).status, name).toBe(404)
    expect((await call(origin, 'DELETE', '/__sim/scenarios/qa-big')).status).toBe(405)
  })

  test('GET /__sim/export gives the state as a scenario file without saving it', async () => {
    const { origin } = await serve({ scenario: 'shipped' }, via)
    const exported = await call(origin, 'GET', '/__sim/export?name=mine&description=kept')
    expect(exported.status).toBe(200)
    expect(exported.headers.get('Content-Disposition')).toBe('attachment; filename="mine.json"')
    expect(validateAgainstSchema(exported.body)).toBe(true)
    expect(exported.body).toMatchObject({
      name: 'mine',
      description: 'kept',
      orders: [{ status: 'shipped' }, { status: 'shipped' }, { status: 'shipped' }],
    })
    expect((await call(origin, 'GET', '/__sim/export?name=Bad/Name')).status).toBe(400)
    expect((await call(origin, 'GET', '/__sim/export?nmae=x')).status).toBe(400)
  })
})
