// Issue 57, item 2: one pass from a deployment. `petstore-sim --proxy <url> --record` starts from the
// deployment's own orders, records what the spec does not show as traffic flows, and one save writes both;
// the saved file then answers offline, the deployment gone. The built CLI against a local stand-in.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { createSimulator } from '../src/index.js'
import { CLI, type CliRun, useProcesses, whenReady } from './support/cli-process.js'
import { closedPort, type SeenRequest, useStandIns } from './support/stand-in.js'

// Each test starts the built CLI as a process: seconds on an idle machine, more beside other work.
vi.setConfig({ testTimeout: 30_000 })

const run = useProcesses()
const cli = (args: string[], env: Record<string, string> = {}) => run(process.execPath, [CLI, ...args], env)
const startStandIn = useStandIns()

/** The deployment's key: never in a written file, a log line or an error. */
const KEY = 'deployment-key-Vq83nR0tLx5w'
const COOKIE = 'sid=deployment-session-Jk29aPq7; Path=/; HttpOnly'
const auth = { Authorization: 'Bearer petstore-test-key' }
const ORDERS = [
  { id: 101, petId: 7, quantity: 1, shipDate: '2026-03-01T10:00:00.000Z', complete: false },
  { id: 102, petId: 8, quantity: 2, shipDate: '2026-03-02T10:00:00.000Z', complete: true },
]
const PETS: Record<string, object> = { 7: { id: 7, name: 'Rex' } }

const json = (
  res: Parameters<Parameters<typeof startStandIn>[0]>[1],
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => void res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body))

/** The stand-in deployment under /v1: the list, a pet, the inventory (with a session cookie), a search answering per `q`. */
function deployment(seen: SeenRequest, res: Parameters<typeof json>[0]) {
  if (seen.headers.authorization !== `Bearer ${KEY}`) return json(res, 401, { code: 'unauthorized', message: 'No key.', status: 401 })
  const url = new URL(seen.url, 'http://stand-in')
  if (url.pathname === '/v1/store/orders') return json(res, 200, ORDERS)
  const pet = url.pathname.startsWith('/v1/pets/') ? PETS[url.pathname.slice('/v1/pets/'.length)] : undefined
  if (pet !== undefined) return json(res, 200, pet)
  if (url.pathname === '/v1/store/inventory') return json(res, 200, { available: 3, sold: 1 }, { 'Set-Cookie': COOKIE })
  if (url.pathname === '/v1/search')
    return json(res, 200, { q: url.searchParams.get('q'), hits: url.searchParams.get('q') === 'cat' ? 2 : 1 })
  json(res, 404, { code: 'not_found', message: 'No such thing.', status: 404 })
}

/** Resolves once the process's stdout matches `pattern`; fails with what it printed if it exits first. */
function printed(process: CliRun, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(process.stdout())
      if (match !== null) resolve(match[0])
    }
    process.child.stdout?.on('data', check)
    check()
    void process.exited.then(() => reject(new Error(`exited.\nstdout: ${process.stdout()}\nstderr: ${process.stderr()}`)))
  })
}

let dir = ''
beforeAll(() => {
  expect(existsSync(CLI), 'run "npm run build" first (npm test does)').toBe(true)
  dir = mkdtempSync(join(tmpdir(), 'petstore-one-pass-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('one --proxy --record session from a deployment', () => {
  test('starts from its orders, records per query, saves both; the saved file answers with the deployment gone', async () => {
    const standIn = await startStandIn(deployment)
    const target = `${standIn.origin}/v1`
    const folder = mkdtempSync(join(dir, 'scenarios-'))
    const server = await whenReady(
      cli(['--proxy', target, '--proxy-key', KEY, '--record', '--pets', '--scenarios-dir', folder, '--port', '0']),
    )
    expect(server.scenario).toBe('deployment')
    expect(server.keys).toContain(`2 orders and 1 pet record read from ${target} at start`)
    // Read before the server started: the list, then each petId the orders name.
    expect(standIn.seen.map((seen) => seen.url)).toEqual(['/v1/store/orders', '/v1/pets/7', '/v1/pets/8'])

    const get = (path: string) => fetch(`${server.url}${path}`, { headers: auth })
    expect(await (await get('/store/orders')).json()).toEqual(ORDERS)
    expect(await (await get('/store/inventory')).json()).toEqual({ available: 3, sold: 1 })
    // The bare path first: its route, recorded without a query, must not stand for the queries after it.
    expect(await (await get('/search')).json()).toEqual({ q: null, hits: 1 })
    expect(await (await get('/search?q=cat')).json()).toEqual({ q: 'cat', hits: 2 })
    expect(await (await get('/search?q=rex')).json()).toEqual({ q: 'rex', hits: 1 })

    const save = await fetch(`${new URL(server.url).origin}/__sim/scenarios`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'from-staging' }),
    })
    expect(save.status).toBe(201)
    // The log says what was written and what the traffic showed, by documented outcome.
    await printed(server, /^The traffic showed .*$/m)
    const file = join(folder, 'from-staging.json')
    // What the start read kept, as `record` says it, under the ready line.
    expect(server.stdout()).toMatch(/^Recorded from http:\/\/127\.0\.0\.1:\d+\/v1: .*2 orders/m)
    expect(server.stdout()).toContain(`Saved ${file}: 2 orders, 4 routes.`)
    expect(server.stdout()).toMatch(/^The traffic showed .*listOrders\.200 \(1\).*getPetById\.200 \(1\).*; 4 answers beyond the spec\.$/m)
    await standIn.close()

    const text = readFileSync(file, 'utf8')
    expect(text).not.toContain(KEY)
    expect(text).not.toContain('deployment-session')
    expect(server.stdout() + server.stderr()).not.toContain(KEY)
    const saved = JSON.parse(text) as { routes: { path: string; query?: object }[]; pets: object }
    expect(saved.pets).toEqual({ 7: { id: 7, name: 'Rex' } })
    expect(saved.routes.map((route) => [route.path, route.query])).toEqual([
      ['/store/inventory', undefined],
      ['/search', undefined],
      ['/search', { q: 'cat' }],
      ['/search', { q: 'rex' }],
    ])

    // The file alone, the deployment gone: the deployment's orders, and each route per query.
    const sim = createSimulator({ scenario: file })
    const API = 'https://api.example.test/v1'
    const offline = async (path: string) => (await sim.fetch(`${API}${path}`, { headers: auth })).json()
    expect(await offline('/store/orders')).toEqual(ORDERS)
    expect(await offline('/store/inventory')).toEqual({ available: 3, sold: 1 })
    expect(await offline('/search?q=cat')).toEqual({ q: 'cat', hits: 2 })
    expect(await offline('/search?q=rex')).toEqual({ q: 'rex', hits: 1 })
    expect(await offline('/search')).toEqual({ q: null, hits: 1 })
    sim.close()
    // And the running server, which starts its state from the deployment's orders: a reset comes back to them.
    await fetch(`${new URL(server.url).origin}/__sim/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(await (await get('/store/orders')).json()).toEqual(ORDERS)
  })

  test('a scenario named with --scenario is kept: nothing is read at start', async () => {
    const standIn = await startStandIn(deployment)
    const server = await whenReady(
      cli(['--proxy', `${standIn.origin}/v1`, '--proxy-key', KEY, '--record', '--scenario', 'shipped', '--port', '0']),
    )
    expect(server.scenario).toBe('shipped')
    expect(standIn.seen).toEqual([])
  })
})

describe('a start read that fails: one line naming the target, never the key, and exit 1', () => {
  const refused = async (args: string[], env: Record<string, string> = {}) => {
    const start = cli(['--port', '0', ...args], env)
    expect(await start.exited).toBe(1)
    expect(start.stdout()).toBe('')
    expect(start.stderr().split('\n')).toHaveLength(2)
    expect(start.stderr()).not.toContain(KEY)
    expect(start.stderr()).not.toContain('    at ')
    return start.stderr().trim()
  }

  test('401 without a key, and with a wrong one', async () => {
    const standIn = await startStandIn(deployment)
    const target = `${standIn.origin}/v1`
    expect(await refused(['--proxy', target, '--record'])).toBe(
      `Failed to start from the deployment's orders: GET ${target}/store/orders answered 401 "unauthorized", not 200 with the list of orders. ` +
        'Give its key with --proxy-key (or PETSTORE_SIM_PROXY_KEY), or start from a scenario with --scenario <name|path> (then nothing is read at start).',
    )
    expect(await refused(['--proxy', target, '--record'], { PETSTORE_SIM_PROXY_KEY: `${KEY}-old` })).toMatch(
      /answered 401 "unauthorized", not 200 with the list of orders\. Check --proxy-key \(or PETSTORE_SIM_PROXY_KEY\), or start from a scenario/,
    )
  })

  test('unreachable, and an answer that is not a list', async () => {
    const gone = `http://127.0.0.1:${await closedPort()}/v1`
    expect(await refused(['--proxy', gone, '--proxy-key', KEY, '--record'])).toMatch(
      new RegExp(
        `^Failed to start from the deployment's orders: Failed to reach ${gone.replace(/[.]/g, '\\.')}: .*\\. Check --proxy, or start from a scenario`,
      ),
    )
    const standIn = await startStandIn((_, res) => json(res, 200, { orders: ORDERS, token: KEY }))
    expect(await refused(['--proxy', `${standIn.origin}/v1`, '--proxy-key', KEY, '--record'])).toMatch(
      /^Failed to start from the deployment's orders: GET http:\/\/127\.0\.0\.1:\d+\/v1\/store\/orders did not answer a list of orders: /,
    )
  })

  test('--pets without --proxy --record is refused', async () => {
    expect(await refused(['--pets'])).toBe("--pets works only with --proxy <url> --record: it reads the deployment's pet records at start.")
  })
})
