import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, onTestFinished, test, vi } from 'vitest'
import { createSimulator, type Scenario, type Simulator, type SimulatorView } from '../src/index.js'
import { createAjv } from './support/ajv.js'
import { testTime } from './support/test-time.js'

// The scenarios folder in process (issue 32): createSimulator({ scenariosDir }), reset by file name,
// exportScenario and saveScenario. The same over HTTP is in scenarios-folder-http.test.ts.

const ajv = createAjv({ strict: true })
const validateAgainstSchema = ajv.compile(
  JSON.parse(readFileSync(new URL('../scenarios/scenario.schema.json', import.meta.url), 'utf8')) as object,
)
const qaBig: Scenario = {
  name: 'qa-big',
  description: 'Four orders, one shipped',
  orders: [
    { id: 1, petId: 10, quantity: 1, status: 'pending' },
    { id: 2, petId: 20, quantity: 2, status: 'shipped', complete: true },
    { id: 3, status: 'pending' },
    { id: 9007199254740993n, status: 'pending' },
  ],
}

const made: Simulator[] = []
afterEach(() => {
  for (const sim of made.splice(0)) sim.close()
  vi.restoreAllMocks()
})

/** A fresh folder holding these files (text, or a scenario object written as JSON). */
function folderWith(files: Record<string, string | Scenario> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-folder-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  for (const [file, content] of Object.entries(files)) {
    writeFileSync(
      join(dir, file),
      typeof content === 'string' ? content : JSON.stringify(content, (_, value) => (typeof value === 'bigint' ? Number(value) : value)),
    )
  }
  return dir
}

function simulator(options: Parameters<typeof createSimulator>[0]): Simulator {
  const sim = createSimulator(options)
  made.push(sim)
  return sim
}

/** What a load must give back: the state and the controls (fault ids aside, since a load numbers them afresh). */
function snapshot(sim: SimulatorView) {
  const { scenario: _name, description: _description, source: _source, ...state } = sim.state()
  return { state, latency: sim.latency(), rateLimit: sim.rateLimit(), faults: sim.faults().map(({ id: _id, ...fault }) => fault) }
}

describe('a scenarios folder in process', () => {
  test('each file is a scenario named by its file name: reset loads it, and the simulator may start with it', async () => {
    const dir = folderWith({ 'qa-big.json': '{"description":"no name field","orders":[{"id":7}]}', 'README.txt': 'not a scenario' })
    const sim = simulator({ scenariosDir: dir })
    await sim.reset('qa-big')
    expect(sim.state()).toMatchObject({ scenario: 'qa-big', description: 'no name field', source: join(dir, 'qa-big.json') })
    expect(sim.orders()).toEqual([{ id: 7, status: 'pending' }])
    expect(simulator({ scenariosDir: dir, scenario: 'qa-big' }).orders()).toEqual([{ id: 7, status: 'pending' }])
    await sim.reset('pending')
    expect(sim.state().scenario).toBe('pending')
  })

  test('a file added or edited after start is read at the next reset, with no restart', async () => {
    const dir = folderWith()
    const sim = simulator({ scenariosDir: dir })
    expect(() => sim.reset('later')).toThrow(/neither a built-in scenario nor a file of the scenarios folder .* has this name/)
    writeFileSync(join(dir, 'later.json'), JSON.stringify({ name: 'later', orders: [{ id: 1 }] }))
    await sim.reset('later')
    expect(sim.orders()).toHaveLength(1)
    writeFileSync(join(dir, 'later.json'), JSON.stringify({ name: 'later', orders: [{ id: 1 }, { id: 2 }] }))
    await sim.reset('later')
    expect(sim.orders()).toHaveLength(2)
  })

  test('a name field that differs from the file name is refused naming both; a built-in name is refused naming the built-in', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const dir = folderWith({ 'qa-big.json': { ...qaBig, name: 'qa-large' }, 'default.json': { name: 'default', orders: [] } })
    const sim = simulator({ scenariosDir: dir, scenario: 'pending' })
    expect(() => sim.reset('qa-big')).toThrow(/its "name" is the string "qa-large", but the file qa-big\.json names it "qa-big"/)
    await sim.reset('default')
    expect(sim.state().source).toBe('default')
    expect(sim.orders().length).toBeGreaterThan(3)
    const warned = vi.mocked(console.warn).mock.calls.map(([line]) => String(line))
    expect(warned.some((line) => line.includes('default.json') && line.includes('built-in scenario'))).toBe(true)
  })

  test('a file that does not parse is said once, naming the file and its line; the others keep working', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const dir = folderWith({
      'good.json': { name: 'good', orders: [{ id: 1 }] },
      'broken.json': '{\n  "name": "broken",\n  "orders": [,]\n}',
    })
    const sim = simulator({ scenariosDir: dir })
    expect(() => sim.reset('broken')).toThrow(/broken\.json": the file is not valid JSON: .*at line 3/)
    await sim.reset('good')
    expect(sim.orders()).toEqual([{ id: 1, status: 'pending' }])
    const about = warn.mock.calls.filter(([line]) => String(line).includes('broken.json'))
    expect(about).toHaveLength(1)
    expect(String(about[0]?.[0])).toMatch(
      /^petstore-orders-simulator: Failed to load scenario ".*broken\.json": the file is not valid JSON/,
    )
  })

  test('a folder file of 10 MB or nested 10,000 deep is refused by name, and the state is unchanged', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const dir = folderWith({
      'huge.json': `{"name":"huge","description":"${'x'.repeat(10 * 1024 * 1024)}"}`,
      'deep.json': `{"name":"deep","pets":{"1":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`,
    })
    const sim = simulator({ scenariosDir: dir, scenario: 'pending' })
    const before = sim.state()
    expect(() => sim.reset('huge')).toThrow(
      /huge\.json": the file is 10485\d+ bytes; a scenario file of the folder may be at most 4194304 bytes/,
    )
    expect(() => sim.reset('deep')).toThrow(/deep\.json": (the JSON is nested too deeply to read|pets\.1.* nested more than 32 levels)/)
    expect(sim.state()).toEqual(before)
  })

  test('a missing folder, or a file given as the folder, is a TypeError at creation', () => {
    expect(() => createSimulator({ scenariosDir: join(tmpdir(), 'no-such-folder-petstore') })).toThrow(
      /^Failed to create the simulator: scenariosDir .*no-such-folder-petstore cannot be read \(ENOENT\)/,
    )
    const dir = folderWith({ 'a.json': '{}' })
    expect(() => createSimulator({ scenariosDir: join(dir, 'a.json') })).toThrow(TypeError)
    expect(() => createSimulator({ scenariosDir: '' })).toThrow(/scenariosDir must be a folder's path/)
  })

  test('a folder that disappears offers no more scenarios, says so, keeps the state, and comes back', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const dir = folderWith({ 'qa-big.json': qaBig })
    const sim = simulator({ scenariosDir: dir, scenario: 'qa-big' })
    await sim.updateOrder(1, { status: 'cancelled' })
    const before = sim.state()
    rmSync(dir, { recursive: true })
    expect(() => sim.reset('qa-big')).toThrow(/neither a built-in scenario nor a file/)
    expect(sim.state()).toEqual(before)
    await expect(sim.saveScenario('after')).rejects.toMatchObject({ status: 409, code: 'scenarios_dir_unavailable' })
    expect(existsSync(dir)).toBe(false)
    expect(warn.mock.calls.some(([line]) => String(line).includes(`The scenarios folder ${dir} cannot be read (ENOENT)`))).toBe(true)
    mkdirSync(dir)
    writeFileSync(join(dir, 'qa-big.json'), JSON.stringify({ name: 'qa-big', orders: [] }))
    await sim.reset('qa-big')
    expect(sim.orders()).toEqual([])
  })

  test('a file that stops loading is said on stderr within moments of its change, with no call made (the folder is watched)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const dir = folderWith({ 'qa-big.json': qaBig })
    simulator({ scenariosDir: dir })
    writeFileSync(join(dir, 'qa-big.json'), '{"name": "qa-big", "orders": [}')
    // The folder's watch runs on the machine's clock (it takes no time source): a bound for a busy machine, not a speed.
    await vi.waitFor(
      () => expect(warn.mock.calls.some(([line]) => String(line).includes('qa-big.json": the file is not valid JSON'))).toBe(true),
      { timeout: 15_000 },
    )
  })

  test('a folder removed and made again is polled until it is back, and said so, with no call made', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const dir = folderWith({ 'qa-big.json': qaBig })
    const sim = simulator({ scenariosDir: dir })
    rmSync(dir, { recursive: true })
    expect(() => sim.reset('qa-big')).toThrow(/neither a built-in scenario nor a file/)
    mkdirSync(dir)
    // Polled every 2 s of the machine's clock (the watch takes no time source): a bound for a busy machine, not a speed.
    await vi.waitFor(() => expect(warn.mock.calls.some(([line]) => String(line).includes(`${dir} is back`))).toBe(true), {
      timeout: 15_000,
    })
    writeFileSync(join(dir, 'qa-big.json'), '{"orders": [{"id": 3}]}')
    await sim.reset('qa-big')
    expect(sim.orders()).toEqual([{ id: 3, status: 'pending' }])
  })

  test('a Kubernetes ConfigMap folder (files linked through a ..data folder) is read through its links', async () => {
    const dir = folderWith()
    mkdirSync(join(dir, '..2026_01_01'))
    writeFileSync(join(dir, '..2026_01_01/qa-big.json'), JSON.stringify({ name: 'qa-big', orders: [{ id: 5 }] }))
    symlinkSync('..2026_01_01', join(dir, '..data'))
    symlinkSync('..data/qa-big.json', join(dir, 'qa-big.json'))
    const sim = simulator({ scenariosDir: dir })
    await sim.reset('qa-big')
    expect(sim.orders()).toEqual([{ id: 5, status: 'pending' }])
  })
})

describe('exportScenario and saveScenario', () => {
  test('exportScenario gives the state as a scenario the schema accepts, which loads back to the same state', async () => {
    const sim = simulator({ scenario: qaBig })
    await sim.updateOrder(3, { status: 'cancelled' })
    await sim.addOrder({ petId: 99 })
    sim.setLatency({ cancelOrder: '20-40', listOrders: 5 })
    sim.addFault({ operation: 'listOrders', kind: 'status', status: 503, times: 2 })
    sim.setRateLimit('100/60s')
    const exported = sim.exportScenario({ name: 'after-edits', description: 'edited' })
    expect(
      validateAgainstSchema(JSON.parse(JSON.stringify(exported, (_, value) => (typeof value === 'bigint' ? Number(value) : value)))),
    ).toBe(true)
    expect(exported).toMatchObject({
      name: 'after-edits',
      description: 'edited',
      latency: { cancelOrder: '20-40', listOrders: 5 },
      rateLimit: { limit: 100, windowSeconds: 60 },
    })
    const copy = simulator({ scenario: exported })
    expect(snapshot(copy)).toEqual(snapshot(sim))
    expect(copy.order(9007199254740993n)?.id).toBe(9007199254740993n)
  })

  test('exportScenario defaults to the loaded scenario name and refuses a name that is not one', () => {
    const sim = simulator({ scenario: 'shipped' })
    expect(sim.exportScenario()).toMatchObject({ name: 'shipped' })
    for (const name of ['a/b', '..', 'Qa', 'x'.repeat(65)])
      expect(() => sim.exportScenario({ name })).toThrow(/^Failed to export a scenario of the simulator: A scenario name is 1 to 64/)
  })

  test('saveScenario writes <name>.json that the schema accepts and that loads back, in a session too', async () => {
    const dir = folderWith()
    // On a time of the test's: on the machine's, a slow run would ship the session's orders before the compare.
    const sim = simulator({ scenariosDir: dir, scenario: qaBig, lifecycle: { min: '10s', max: '1m' }, time: testTime() })
    const mine = sim.session('qa-run')
    await mine.updateOrder(1, { status: 'shipped' })
    mine.addFault({ operation: 'cancelOrder', kind: 'network' })
    const saved = await mine.saveScenario('qa-saved', { description: 'from a session' })
    expect(saved).toEqual({ name: 'qa-saved', path: join(dir, 'qa-saved.json'), overwritten: false })
    const file = readFileSync(saved.path, 'utf8')
    expect(file).toContain('"id": 9007199254740993')
    expect(validateAgainstSchema(JSON.parse(file))).toBe(true)
    expect(JSON.parse(file)).toMatchObject({ name: 'qa-saved', description: 'from a session', lifecycle: { min: '10s', max: '60s' } })
    const other = simulator({ scenariosDir: dir, time: testTime() })
    await other.reset('qa-saved')
    expect(snapshot(other)).toEqual(snapshot(mine))
    expect(sim.orders().find((order) => order.id === 1)?.status).toBe('pending')
  })

  test('a save refuses a taken name without overwrite (409 scenario_exists), a built-in name always, and replaces with it', async () => {
    const dir = folderWith({ 'taken.json': { name: 'taken', orders: [] } })
    const sim = simulator({ scenariosDir: dir, scenario: 'pending' })
    await expect(sim.saveScenario('taken')).rejects.toMatchObject({ status: 409, code: 'scenario_exists' })
    expect(JSON.parse(readFileSync(join(dir, 'taken.json'), 'utf8'))).toEqual({ name: 'taken', orders: [] })
    await expect(sim.saveScenario('default', { overwrite: true })).rejects.toMatchObject({ status: 409, code: 'scenario_exists' })
    expect(await sim.saveScenario('taken', { overwrite: true })).toMatchObject({ overwritten: true })
    expect(JSON.parse(readFileSync(join(dir, 'taken.json'), 'utf8')).orders).toHaveLength(3)
  })

  test('a bad name is a TypeError, and nothing is written anywhere', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'petstore-parent-'))
    onTestFinished(() => rmSync(parent, { recursive: true, force: true }))
    const dir = join(parent, 'scenarios')
    mkdirSync(dir)
    const sim = simulator({ scenariosDir: dir })
    for (const name of ['../escape', 'a/b', '..', '.hidden', 'qa.big', 'Qa', '', 'x'.repeat(200), '-dash']) {
      await expect(sim.saveScenario(name), name).rejects.toThrow(/^Failed to save a scenario of the simulator: A scenario name is 1 to 64/)
    }
    await expect(sim.saveScenario(42 as unknown as string)).rejects.toBeInstanceOf(TypeError)
    await expect(sim.saveScenario('ok', { overwrite: 'yes' as unknown as boolean })).rejects.toThrow(/"overwrite" is true or false/)
    expect(readdirSync(parent)).toEqual(['scenarios'])
    expect(readdirSync(dir)).toEqual([])
  })

  test('saves of one name that race: without overwrite exactly one wins, with it each writes a whole file; no temporary file stays', async () => {
    const dir = folderWith()
    const sim = simulator({ scenariosDir: dir, scenario: 'pending' })
    const first = await Promise.allSettled(Array.from({ length: 8 }, () => sim.saveScenario('race')))
    expect(first.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    for (const result of first.filter((result) => result.status === 'rejected'))
      expect(result.reason).toMatchObject({ status: 409, code: 'scenario_exists' })
    const sessions = Array.from({ length: 8 }, (_, index) => sim.session(`s${index}`))
    await Promise.all(sessions.map((session, index) => session.removeOrder(1 + (index % 3))))
    const second = await Promise.all(sessions.map((session) => session.saveScenario('race', { overwrite: true })))
    expect(second.every((saved) => saved.overwritten)).toBe(true)
    expect(JSON.parse(readFileSync(join(dir, 'race.json'), 'utf8')).orders).toHaveLength(2)
    expect(readdirSync(dir)).toEqual(['race.json'])
  })

  test('without a scenarios folder a save is a 409 scenarios_dir_unavailable saying how to give one', async () => {
    await expect(simulator({}).saveScenario('x')).rejects.toMatchObject({
      status: 409,
      code: 'scenarios_dir_unavailable',
      message: expect.stringContaining('--scenarios-dir'),
    })
  })
})
